/// The hardware API speaks PlumSystem's types: its calls throw ``SystemError`` (as
/// ``HardwareError``) carrying an ``Errno``, and its drivers time samples with
/// ``MonotonicInstant``. A module that uses the hardware sees them without importing PlumSystem
/// itself, as NIO's users see NIOCore's types.
@_exported public import PlumSystem
