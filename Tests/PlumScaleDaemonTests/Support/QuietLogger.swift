import Logging

/// Logs nothing: the tests look at what the code does, not at its log.
let quietLogger = Logger(label: "plumscale.test", factory: { _ in SwiftLogNoOpLogHandler() })
