internal import CPlumShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One thin wrapper per C call: the only place that knows about `-1`/`errno` and `EINTR`.
///
/// Everything above this file sees `Result<_, Errno>` (the internal layer) or
/// `throws(HardwareError)` (the public layer). Modelled on swift-system's
/// `Internals/Syscalls.swift`.
enum Syscalls {
    // MARK: Conventions

    /// Calls `body` until it does not fail with `EINTR`; a negative result becomes `errno`.
    @inline(__always)
    static func retrying<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
        while true {
            let result = body()
            if result >= 0 { return .success(result) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
        }
    }

    /// Calls `body` once; a negative result becomes `errno`. For calls whose `EINTR` the caller
    /// handles itself, or that never block.
    @inline(__always)
    static func once<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
        let result = body()
        return result >= 0 ? .success(result) : .failure(.current)
    }

    @inline(__always)
    static func pointer(_ body: () -> OpaquePointer?) -> Result<OpaquePointer, Errno> {
        while true {
            if let pointer = body() { return .success(pointer) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
        }
    }

    // MARK: GPIO (plum_gpio_*)

    static func gpioChipOpen(_ path: String) -> Result<OpaquePointer, Errno> {
        pointer { plum_gpio_chip_open(path) }
    }

    static func gpioChipClose(_ chip: OpaquePointer) { plum_gpio_chip_close(chip) }

    static func gpioChipInfo(_ chip: OpaquePointer) -> Result<plum_gpio_chip_info, Errno> {
        var info = plum_gpio_chip_info()
        return once { plum_gpio_chip_get_info(chip, &info) }.map { _ in info }
    }

    static func gpioFindLine(_ chip: OpaquePointer, name: String) -> Result<UInt32, Errno> {
        retrying { plum_gpio_chip_find_line(chip, name) }.map { UInt32($0) }
    }

    static func gpioLineName(_ chip: OpaquePointer, offset: UInt32) -> Result<String, Errno> {
        text { plum_gpio_chip_line_name(chip, offset, $0, $1) }
    }

    static func gpioLineConsumer(_ chip: OpaquePointer, offset: UInt32) -> Result<String, Errno> {
        text { plum_gpio_chip_line_consumer(chip, offset, $0, $1) }
    }

    /// Runs a C call that fills a 32-byte name buffer.
    private static func text(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> Result<String, Errno> {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PLUM_GPIO_NAME_SIZE)) { buffer in
            buffer.initialize(repeating: 0)
            return retrying { body(buffer.baseAddress!, buffer.count) }
                .map { _ in String(cString: buffer.baseAddress!) }
        }
    }

    static func gpioRequestOutput(
        _ chip: OpaquePointer, offset: UInt32, consumer: String, activeLow: Bool, initialValue: Bool
    ) -> Result<OpaquePointer, Errno> {
        pointer {
            plum_gpio_request_output(chip, offset, consumer, activeLow ? 1 : 0, initialValue ? 1 : 0)
        }
    }

    static func gpioRequestInput(
        _ chip: OpaquePointer, offset: UInt32, consumer: String, activeLow: Bool,
        bias: GPIOBias, edges: EdgeDetection, eventCapacity: Int
    ) -> Result<OpaquePointer, Errno> {
        pointer {
            plum_gpio_request_input(
                chip, offset, consumer, activeLow ? 1 : 0,
                plum_gpio_bias(UInt32(bias.rawValue)), plum_gpio_edge(UInt32(edges.rawValue)),
                eventCapacity)
        }
    }

    static func gpioRequestRelease(_ request: OpaquePointer) { plum_gpio_request_release(request) }

    @inline(__always)
    static func gpioGetValue(_ request: OpaquePointer) -> Result<Bool, Errno> {
        retrying { plum_gpio_request_get_value(request) }.map { $0 != 0 }
    }

    @inline(__always)
    static func gpioSetValue(_ request: OpaquePointer, _ value: Bool) -> Result<Void, Errno> {
        retrying { plum_gpio_request_set_value(request, value ? 1 : 0) }.map { _ in () }
    }

    /// Waits for edge events; after `EINTR` it waits again for what is left of the timeout, so
    /// a signal neither shortens nor stretches the wait.
    static func gpioWaitEdgeEvents(_ request: OpaquePointer, timeoutNanoseconds: Int64) -> Result<Bool, Errno> {
        let clock = SystemMonotonicClock()
        let start = clock.now()
        var remaining = timeoutNanoseconds
        while true {
            let result = plum_gpio_request_wait_edge_events(request, remaining)
            if result >= 0 { return .success(result == 1) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
            if timeoutNanoseconds >= 0 {
                let elapsed = Int64(clamping: clock.now().nanoseconds(since: start))
                remaining = max(0, timeoutNanoseconds - elapsed)
            }
        }
    }

    @inline(__always)
    static func gpioReadEdgeEvents(
        _ request: OpaquePointer, into buffer: UnsafeMutablePointer<plum_gpio_edge_event>, capacity: Int
    ) -> Result<Int, Errno> {
        retrying { plum_gpio_request_read_edge_events(request, buffer, capacity) }.map { Int($0) }
    }

    // MARK: Files and directories

    static func openFile(_ path: String, flags: Int32) -> Result<Int32, Errno> {
        retrying { open(path, flags | O_CLOEXEC) }
    }

    /// Closes a descriptor. `EINTR` is not retried: on Linux the descriptor is gone either way.
    static func closeFile(_ fd: Int32) { _ = close(fd) }

    static func readFile(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retrying { read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads a small text file whole, as sysfs attributes are read: one open, reads until EOF
    /// or `limit` bytes. The buffer is on the stack, and a short value ("1234\n") becomes a
    /// small string, so a sampler polling `in_voltage0_raw` does not allocate.
    static func readSmallFile(_ path: String, limit: Int = 4096) -> Result<String, Errno> {
        let fd: Int32
        switch openFile(path, flags: O_RDONLY) {
        case .success(let value): fd = value
        case .failure(let error): return .failure(error)
        }
        defer { closeFile(fd) }
        return withUnsafeTemporaryAllocation(byteCount: limit, alignment: 1) { buffer in
            var count = 0
            while count < limit {
                switch readFile(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) {
                case .success(0): return .success(String(decoding: buffer[..<count], as: UTF8.self))
                case .success(let n): count += n
                case .failure(let error): return .failure(error)
                }
            }
            return .success(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }

    /// The entry names of a directory, without "." and "..".
    static func listDirectory(_ path: String) -> Result<[String], Errno> {
        guard let directory = opendir(path) else { return .failure(.current) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return .success(names)
    }

    // MARK: I2C (plum_i2c_*, libi2c)

    static func i2cSetAddress(_ fd: Int32, _ address: UInt16) -> Result<Void, Errno> {
        retrying { plum_i2c_set_address(fd, address) }.map { _ in () }
    }

    static func i2cReadByte(_ fd: Int32, register: UInt8) -> Result<UInt8, Errno> {
        retrying { plum_i2c_read_byte_data(fd, register) }.map { UInt8(truncatingIfNeeded: $0) }
    }

    static func i2cWriteByte(_ fd: Int32, register: UInt8, _ value: UInt8) -> Result<Void, Errno> {
        retrying { plum_i2c_write_byte_data(fd, register, value) }.map { _ in () }
    }

    static func i2cReadWord(_ fd: Int32, register: UInt8) -> Result<UInt16, Errno> {
        retrying { plum_i2c_read_word_data(fd, register) }.map { UInt16(truncatingIfNeeded: $0) }
    }

    static func i2cWriteWord(_ fd: Int32, register: UInt8, _ value: UInt16) -> Result<Void, Errno> {
        retrying { plum_i2c_write_word_data(fd, register, value) }.map { _ in () }
    }

    static func i2cReadBlock(
        _ fd: Int32, register: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Result<Int, Errno> {
        retrying {
            plum_i2c_read_block_data(fd, register, UInt8(buffer.count), buffer.baseAddress)
        }.map { Int($0) }
    }

    static func i2cWriteBlock(_ fd: Int32, register: UInt8, _ bytes: [UInt8]) -> Result<Void, Errno> {
        bytes.withUnsafeBufferPointer { buffer in
            retrying {
                plum_i2c_write_block_data(fd, register, UInt8(buffer.count), buffer.baseAddress)
            }.map { _ in () }
        }
    }

    // MARK: Scheduling and memory

    /// `pthread_setschedparam` for the calling thread. It returns the error number rather than
    /// setting `errno`.
    static func setSchedulingPolicy(_ policy: Int32, priority: Int32) -> Result<Void, Errno> {
        var parameter = sched_param()
        parameter.sched_priority = priority
        let result = pthread_setschedparam(pthread_self(), policy, &parameter)
        return result == 0 ? .success(()) : .failure(Errno(rawValue: result))
    }

    static func schedulingPolicy() -> Result<(policy: Int32, priority: Int32), Errno> {
        var policy: Int32 = 0
        var parameter = sched_param()
        let result = pthread_getschedparam(pthread_self(), &policy, &parameter)
        return result == 0
            ? .success((policy, parameter.sched_priority)) : .failure(Errno(rawValue: result))
    }

    static func priorityRange(policy: Int32) -> ClosedRange<Int32> {
        sched_get_priority_min(policy)...sched_get_priority_max(policy)
    }

    static func setTimerSlack(nanoseconds: UInt) -> Result<Void, Errno> {
        once { plum_set_timer_slack(nanoseconds) }.map { _ in () }
    }

    static func timerSlack() -> Result<Int, Errno> {
        once { plum_timer_slack() }
    }

    static func lockAllMemory() -> Result<Void, Errno> {
        once { mlockall(MCL_CURRENT | MCL_FUTURE) }.map { _ in () }
    }

    static func unlockAllMemory() -> Result<Void, Errno> {
        once { munlockall() }.map { _ in () }
    }
}
