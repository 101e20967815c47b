import Logging

/// Logs nothing: the tests look at what the code does, not at its log.
package let quietLogger = Logger(label: "plumscale.test", factory: { _ in SwiftLogNoOpLogHandler() })
