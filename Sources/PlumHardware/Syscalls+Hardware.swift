internal import CPlumShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The hardware's thin wrappers, one per C call of CPlumShim (libgpiod, libi2c) and of the
/// scheduler; the conventions (`-1`/`errno`/`EINTR`) and the file calls are PlumSystem's
/// ``Syscalls``.
extension Syscalls {
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
