internal import CPlumShim

/// An open GPIO character device, such as `/dev/gpiochip0`.
///
/// Mirrors `struct gpiod_chip` (`gpiod_chip_open`, `gpiod_chip_get_info`, line lookup) over
/// libgpiod 1.6 or 2.x, whichever this build was compiled against (``libgpiodAPIVersion``).
/// Line requests made from a chip keep it open for as long as they live: libgpiod 1.6 frees a
/// chip's lines when the chip closes.
///
/// `@unchecked Sendable`: a chip is handed to the thread that samples with it. The libgpiod
/// objects behind it are not synchronised, so use a chip and its requests from one thread at a
/// time; the only mutable state is the kernel's, behind the file descriptor.
public final class GPIOChip: @unchecked Sendable {
    /// Where `/dev/gpiochip*` live.
    public static let defaultDeviceDirectory = "/dev"

    /// "1" or "2": the libgpiod API the C shim was compiled against.
    public static var libgpiodAPIVersion: String { String(cString: plum_gpio_api_version()) }

    /// What the kernel reports about this chip.
    public let info: GPIOChipInfo

    let handle: OpaquePointer

    /// Opens the chip a spec names; a label is found by opening every chip in `deviceDirectory`.
    /// - Throws: ``HardwareError`` naming the chip, with the chips that do exist when it is missing.
    public convenience init(
        _ spec: GPIOChipSpec, deviceDirectory: String = GPIOChip.defaultDeviceDirectory
    ) throws(HardwareError) {
        switch spec {
        case .path(let path):
            try self.init(path: path, deviceDirectory: deviceDirectory)
        case .name(let name):
            try self.init(path: deviceDirectory + "/" + name, deviceDirectory: deviceDirectory)
        case .label(let label):
            let chips = GPIOChip.available(in: deviceDirectory)
            guard let match = chips.first(where: { $0.label == label }) else {
                throw HardwareError(
                    .notFound, operation: "finding", subject: "GPIO chip labelled '\(label)'",
                    detail: "no such chip",
                    hint: HardwareError.chipListHint(chips, directory: deviceDirectory))
            }
            try self.init(path: match.path, deviceDirectory: deviceDirectory)
        }
    }

    /// Opens a chip by its device path.
    /// - Parameter deviceDirectory: where to look for other chips to name in an error.
    public init(path: String, deviceDirectory: String = GPIOChip.defaultDeviceDirectory) throws(HardwareError) {
        switch GPIOChip.open(path: path) {
        case .success(let (handle, info)):
            self.handle = handle
            self.info = info
        case .failure(let errno):
            let chips =
                errno == .noSuchFileOrDirectory || errno == .noSuchDevice || errno == .notATypewriter
                ? GPIOChip.available(in: deviceDirectory) : []
            throw HardwareError.gpioChipOpen(path: path, errno: errno, chips: chips, directory: deviceDirectory)
        }
    }

    deinit { Syscalls.gpioChipClose(handle) }

    /// Opens a chip and reads its info; the internal, `Result`-returning layer.
    static func open(path: String) -> Result<(OpaquePointer, GPIOChipInfo), Errno> {
        Syscalls.gpioChipOpen(path).flatMap { handle in
            switch Syscalls.gpioChipInfo(handle) {
            case .success(var raw):
                let name = withUnsafeBytes(of: &raw.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                let label = withUnsafeBytes(of: &raw.label) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return .success((handle, GPIOChipInfo(path: path, name: name, label: label, lineCount: raw.num_lines)))
            case .failure(let errno):
                Syscalls.gpioChipClose(handle)
                return .failure(errno)
            }
        }
    }

    /// Every GPIO chip in `deviceDirectory` that can be opened, sorted by name, as `gpiodetect`
    /// lists them. Entries that are not GPIO chips, or cannot be opened, are left out.
    public static func available(in deviceDirectory: String = GPIOChip.defaultDeviceDirectory) -> [GPIOChipInfo] {
        guard case .success(let names) = Syscalls.listDirectory(deviceDirectory) else { return [] }
        let chips = names.filter { $0.hasPrefix("gpiochip") }
            .compactMap { name -> GPIOChipInfo? in
                guard case .success(let (handle, info)) = open(path: deviceDirectory + "/" + name) else { return nil }
                Syscalls.gpioChipClose(handle)
                return info
            }
        return chips.sorted { ($0.name.count, $0.name) < ($1.name.count, $1.name) }
    }

    /// The offset of a line, checked against the chip's line count.
    /// - Throws: ``HardwareError/Code/notFound`` for an unknown name,
    ///   ``HardwareError/Code/invalidRequest`` for an offset past the last line.
    public func offset(of line: GPIOLineSpec) throws(HardwareError) -> UInt32 {
        switch line {
        case .offset(let offset):
            guard offset < info.lineCount else {
                throw HardwareError(
                    .invalidRequest, operation: "finding", subject: "\(info.name) line \(offset)",
                    detail: "offset out of range",
                    hint: "\(info.name) [\(info.label)] has lines 0…\(Int(info.lineCount) - 1)")
            }
            return offset
        case .name(let name):
            switch Syscalls.gpioFindLine(handle, name: name) {
            case .success(let offset): return offset
            case .failure(let errno):
                throw HardwareError(
                    errno == .noSuchFileOrDirectory ? .notFound : .systemCall,
                    operation: "finding", subject: "\(info.name) line '\(name)'", errno: errno,
                    hint: errno == .noSuchFileOrDirectory
                        ? "gpioinfo \(info.name) lists the line names; names are case-sensitive" : nil)
            }
        }
    }

    /// The line's name from the device tree, or `nil` for an unnamed line.
    public func lineName(at offset: UInt32) throws(HardwareError) -> String? {
        let offset = try self.offset(of: .offset(offset))
        switch Syscalls.gpioLineName(handle, offset: offset) {
        case .success(let name): return name.isEmpty ? nil : name
        case .failure(let errno):
            throw HardwareError(
                .systemCall, operation: "reading name of", subject: "\(info.name) line \(offset)", errno: errno)
        }
    }

    /// Requests a line as an output, driven to `initialValue` from the moment it is granted.
    /// - Parameters:
    ///   - consumer: the name `gpioinfo` shows as the line's user.
    ///   - initialValue: `true` is active (high, unless `activeLow`).
    /// - Throws: ``HardwareError``; `EBUSY` names the current consumer.
    public func requestOutput(
        _ line: GPIOLineSpec, consumer: String = "plumscale", initialValue: Bool = false,
        activeLow: Bool = false
    ) throws(HardwareError) -> GPIOOutputRequest {
        let offset = try self.offset(of: line)
        switch Syscalls.gpioRequestOutput(
            handle, offset: offset, consumer: Self.kernelConsumer(consumer), activeLow: activeLow,
            initialValue: initialValue)
        {
        case .success(let request):
            return GPIOOutputRequest(chip: self, handle: request, offset: offset, subject: subject(line, offset))
        case .failure(let errno):
            throw requestError(line, offset: offset, errno: errno, bias: .asIs)
        }
    }

    /// Requests a line as an input, with a pull resistor and edge detection.
    /// - Parameters:
    ///   - edges: which edges the kernel timestamps and queues as events.
    ///   - eventCapacity: how many events one ``GPIOInputRequest/readEdgeEvents(into:)`` can
    ///     return; the buffer is allocated once, here.
    /// - Throws: ``HardwareError``; `EBUSY` names the current consumer.
    public func requestInput(
        _ line: GPIOLineSpec, consumer: String = "plumscale", bias: GPIOBias = .asIs,
        edges: EdgeDetection = .none, activeLow: Bool = false, eventCapacity: Int = 64
    ) throws(HardwareError) -> GPIOInputRequest {
        let offset = try self.offset(of: line)
        let capacity = min(max(eventCapacity, 1), 1024)
        switch Syscalls.gpioRequestInput(
            handle, offset: offset, consumer: Self.kernelConsumer(consumer), activeLow: activeLow, bias: bias,
            edges: edges, eventCapacity: capacity)
        {
        case .success(let request):
            return GPIOInputRequest(
                chip: self, handle: request, offset: offset, subject: subject(line, offset),
                edges: edges, eventCapacity: capacity)
        case .failure(let errno):
            throw requestError(line, offset: offset, errno: errno, bias: bias)
        }
    }

    /// The longest consumer name the kernel keeps, in bytes: `GPIO_MAX_NAME_SIZE` (32) less
    /// the terminating NUL.
    package static var consumerByteLimit: Int { 31 }

    /// A consumer name as the kernel will show it: cut to ``consumerByteLimit`` bytes at the
    /// last whole character, without NULs.
    ///
    /// The kernel cuts a longer name at byte 31, which can fall inside a UTF-8 character
    /// ("plumscale Küche PD_SCK" in `gpioinfo` ends in a broken byte); a NUL would end the C
    /// string early. Cutting here keeps the name valid text.
    package static func kernelConsumer(_ name: String) -> String {
        var fitted = ""
        var bytes = 0
        for character in name where character != "\0" {
            let size = character.utf8.count
            guard bytes + size <= consumerByteLimit else { break }
            fitted.append(character)
            bytes += size
        }
        return fitted
    }

    private func subject(_ line: GPIOLineSpec, _ offset: UInt32) -> String {
        if case .name(let name) = line { return "\(info.name) line \(offset) (\(name))" }
        return "\(info.name) line \(offset)"
    }

    private func requestError(_ line: GPIOLineSpec, offset: UInt32, errno: Errno, bias: GPIOBias) -> HardwareError {
        let consumer =
            errno == .deviceBusy
            ? try? Syscalls.gpioLineConsumer(handle, offset: offset).get() : nil
        return HardwareError.gpioLineRequest(
            subject: subject(line, offset), errno: errno, consumer: consumer, bias: bias)
    }
}
