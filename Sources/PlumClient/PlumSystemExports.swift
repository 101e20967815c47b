public import PlumSystem

/// How a ``DaemonLink`` waits before trying plumscaled again: PlumSystem's one back-off type,
/// named here so that a client of the link needs no other import.
public typealias BackOff = PlumSystem.BackOff
