internal import NIOCore

/// The ordered-command skeleton both sessions share (JSON requests and MT-SICS commands):
/// commands are answered one at a time, in the order they came, each by a task off the event
/// loop. Closing the connection (or MT-SICS `@`) cancels the command in flight and drops the
/// rest, and the late answer of a cancelled command is never written.
///
/// A value owned by one session; every method runs on that session's event loop.
struct OrderedCommandQueue<Command> {
    private var pending = CircularBuffer<Command>()
    private var current: Task<Void, Never>?
    /// Counts started commands, so an answer that comes after a cancellation is recognised.
    private var generation = 0
    /// A command is being answered.
    private(set) var busy = false

    /// Commands waiting, not counting the one in flight.
    var count: Int { pending.count }

    /// Nothing in flight and nothing waiting.
    var isIdle: Bool { !busy && pending.isEmpty }

    mutating func append(_ command: Command) {
        pending.append(command)
    }

    /// The next command to answer, or nil while one is in flight or none waits.
    mutating func next() -> Command? {
        busy ? nil : pending.popFirst()
    }

    /// Starts answering a command taken with ``next()``: `work` gets the ticket to hand back
    /// to ``finish(_:)`` with the answer, and returns the task doing it.
    mutating func start(_ work: (_ ticket: Int) -> Task<Void, Never>) {
        busy = true
        generation += 1
        current = work(generation)
    }

    /// Takes the answer of the command with `ticket`: true when it is the one in flight, so
    /// the answer is written and the next command may start; false for a cancelled one.
    mutating func finish(_ ticket: Int) -> Bool {
        guard busy, ticket == generation else { return false }
        busy = false
        current = nil
        return true
    }

    /// Cancels the command in flight and drops those waiting.
    mutating func cancelAll() {
        current?.cancel()
        current = nil
        pending.removeAll()
        busy = false
        generation += 1
    }
}
