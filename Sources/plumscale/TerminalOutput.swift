import PlumProtocol

/// Every line the CLI prints, with what is not printable in it escaped (``WireText/escaped(_:)``):
/// a service's version, a session's name or a daemon's message came from the wire, and an
/// escape sequence in one must not reach the terminal of whoever runs `plumscale status`.
///
/// It shadows the standard library's `print` for a `String` in this module, so no output path
/// can forget it. Our own styling (a verdict's colour) goes through ``printStyled(_:)``.
func print(_ text: String, terminator: String = "\n") {
    Swift.print(WireText.escaped(text), terminator: terminator)
}

/// A line that carries our own SGR styling: its parts from the wire are escaped where it is made.
func printStyled(_ text: String) {
    Swift.print(text)
}
