/// Where the probe looks: the device-tree, sysfs and device directories.
///
/// Every path is a parameter so that tests point the probe at a fake tree built in a temporary
/// directory; the defaults are a running Linux system's. GPIO chips and I2C buses are still opened
/// through the real libgpiod and i2c-dev code, whatever directory they are found in.
package struct ProbeRoots: Hashable, Sendable {
    /// The files that may hold the board's model, tried in order: the device tree as procfs shows
    /// it, then as sysfs does (`/proc/device-tree` is a link to the second on most kernels).
    package var modelFiles: [String]
    /// Where `gpiochipN` and `i2c-N` device files live.
    package var deviceDirectory: String
    /// The `i2c-dev` class directory, whose `i2c-N/name` says which adapter a bus is.
    package var i2cClassDirectory: String
    /// The IIO bus's devices (`iio:deviceN/name`).
    package var iioDirectory: String
    /// The graphics class directory, whose `fbN` entries are the framebuffers (`name`,
    /// `virtual_size`, `bits_per_pixel`); their device files are `fbN` in ``deviceDirectory``.
    package var graphicsClassDirectory: String

    package init(
        modelFiles: [String] = ["/proc/device-tree/model", "/sys/firmware/devicetree/base/model"],
        deviceDirectory: String = "/dev",
        i2cClassDirectory: String = "/sys/class/i2c-dev",
        iioDirectory: String = "/sys/bus/iio/devices",
        graphicsClassDirectory: String = "/sys/class/graphics"
    ) {
        self.modelFiles = modelFiles
        self.deviceDirectory = deviceDirectory
        self.i2cClassDirectory = i2cClassDirectory
        self.iioDirectory = iioDirectory
        self.graphicsClassDirectory = graphicsClassDirectory
    }

    /// The same layout under `base`, as a fake tree for tests: `base/proc/device-tree/model`,
    /// `base/dev`, `base/sys/class/i2c-dev`, `base/sys/bus/iio/devices`, `base/sys/class/graphics`.
    package init(under base: String) {
        self.init(
            modelFiles: [base + "/proc/device-tree/model", base + "/sys/firmware/devicetree/base/model"],
            deviceDirectory: base + "/dev",
            i2cClassDirectory: base + "/sys/class/i2c-dev",
            iioDirectory: base + "/sys/bus/iio/devices",
            graphicsClassDirectory: base + "/sys/class/graphics")
    }
}
