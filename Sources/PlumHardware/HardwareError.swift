/// A failed hardware operation: PlumSystem's ``SystemError``, under the name drivers and their
/// users have always caught.
///
/// One shape for every system failure, so that an errno reads the same on a GPIO chip and on a
/// socket. The hardware's own hints (group 'gpio', i2cdetect, raspi-config) are built in
/// `HardwareErrorHints.swift`:
///
///     opening /dev/gpiochip0: Permission denied (EACCES); add the user to group 'gpio'
///     i2c-1 address 0x48: No such device or address (ENXIO); check wiring and i2cdetect -y 1
public typealias HardwareError = SystemError
