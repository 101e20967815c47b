import Logging

/// Logs nothing: the tests look at what the code does, not at its log.
public let quietLogger = Logger(label: "plumscale.test", factory: { _ in SwiftLogNoOpLogHandler() })
