public import PlumHardware

// What the driver does with a read-out that failed: how much of the chip's state a late one
// lost, counting the discards, and giving up when every read-out fails.
extension HX711 {
    /// Whether a late read-out left the chip at the gain the driver believes, so that only its
    /// word is lost (as with ``ShiftOutcome/bitMismatch``) and no reset is needed.
    ///
    /// A conversion that completes after k of the read-out's n pulses replaces the word (the
    /// shift restarts at the new MSB): the chip counts k pulses for the old conversion and n − k
    /// for the new one. The datasheet calls fewer than 25 or more than 27 pulses within a
    /// conversion period a serial error and leaves its effect open; our chip model (and the
    /// kernel tests' emulated chip) latch no selection then, so the previous input and gain stay.
    /// At channel A gain 128 (n = 25) both counts are serial errors for 1 ≤ k ≤ 24, so the chip
    /// keeps the gain the last whole read-out selected: the model honours that pulse count. DOUT
    /// then shows a data bit of the new word: 0 fails the DOUT check (`doutNotHigh`), 1 stays
    /// high until the next conversion pulls it low. With k = 25 the count latched is the right
    /// one; DOUT is low at the check (`doutNotHigh`), or the conversion came after the check and
    /// its ready edge fell inside this read-out, so its own read-out is late too. At channel B
    /// gain 32 or channel A gain 64
    /// (n = 26, 27) a split can make the chip count a valid but wrong 25–27 pulses (k ≤ n − 25,
    /// or k ≥ 25 within the gain pulses) with DOUT high after them: the chip may have switched
    /// input or gain while the check passes, so only a reset makes its state known.
    /// `stretched` and `doutNotHigh` mean the pulse count itself is unknown: reset.
    @inlinable
    func lateReadoutKeepsGain(_ outcome: ShiftOutcome) -> Bool {
        switch outcome {
        case .stretched, .doutNotHigh: false
        case .bitMismatch, .value: settings.gain == .channelA128
        }
    }

    /// Resets the chip after a failed read-out, first counting as missed the conversions it
    /// completed since the one just read, which the reset loses unread (a conversion that
    /// replaced the word under the clock of a late read-out, say).
    @inlinable
    mutating func resetAfterFailedReadout() throws(SensorError) {
        let unread = conversions.unread(before: time.now())
        if unread > 0 { discard(.missedConversion, count: unread) }
        try reset()
    }

    @usableFromInline
    enum DiscardReason {
        case stretchedClock
        case integrity
        case settling
        case lateReadout
        case missedConversion
    }

    /// Counts `count` conversions thrown away for `reason`, with the next sample and in the totals.
    @inlinable
    mutating func discard(_ reason: DiscardReason, count: UInt32 = 1) {
        switch reason {
        case .stretchedClock:
            pendingDiscards.stretchedClock &+= count
            totals.discarded.stretchedClock &+= count
        case .integrity:
            pendingDiscards.integrity &+= count
            totals.discarded.integrity &+= count
        case .settling:
            pendingDiscards.settling &+= count
            totals.discarded.settling &+= count
        case .lateReadout:
            pendingDiscards.lateReadout &+= count
            totals.discarded.lateReadout &+= count
        case .missedConversion:
            pendingDiscards.missedConversion &+= count
            totals.discarded.missedConversion &+= count
        }
    }

    /// Cold: called only after repeated failures, so it stays out of line.
    ///
    /// The chip's state is unknown after the last failure, so the next ``read()`` resets it
    /// before anything else.
    @usableFromInline
    mutating func giveUpIfPersistent(_ failures: Int, reason: DiscardReason) throws(SensorError) {
        guard failures >= Self.consecutiveFailureLimit else { return }
        needsReset = true
        switch reason {
        case .lateReadout:
            throw .hardware(
                sensor: name,
                HardwareError(
                    .timedOut, operation: "reading", subject: "HX711 DOUT",
                    detail: "\(failures) read-outs in a row lasted longer than "
                        + "\(settings.readoutLimit.formattedMilliseconds) after their ready edge "
                        + "(conversion period \(settings.rate.period.formattedMilliseconds))",
                    hint: "the sampler is preempted in the middle of read-outs; run it with real-time priority "
                        + "(realtime_priority) and locked memory (lock_memory)"))
        case .stretchedClock:
            throw .hardware(
                sensor: name,
                HardwareError(
                    .timedOut, operation: "clocking", subject: "HX711 PD_SCK",
                    detail: "\(failures) reads in a row had a PD_SCK high period over "
                        + settings.clockHighLimit.formattedMicroseconds,
                    hint: "the system is too busy to bit-bang in time; run the sampler with real-time priority, "
                        + "or raise clock-high-limit only for an emulated bus"))
        case .integrity, .settling, .missedConversion:
            break
        }
        throw .hardware(
            sensor: name,
            HardwareError(
                .malformed, operation: "reading", subject: "HX711 DOUT",
                detail: "\(failures) conversions in a row failed the DOUT checks",
                hint: "check that DOUT is not shorted to ground or floating, that the wires are short, "
                    + "and that the configured lines are the HX711's DOUT and PD_SCK"))
    }
}
