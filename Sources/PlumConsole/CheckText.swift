import PlumProtocol

/// A check-weighing verdict for the terminal.
package enum CheckText {
    /// The verdict in capitals, in its lamp's colour on a colour terminal: green OK, yellow
    /// UNDER, red OVER.
    package static func verdict(_ verdict: String, colour: Bool) -> String {
        let word = WireText.escaped(verdict.uppercased())
        guard colour else { return word }
        let code =
            switch verdict {
            case "ok": "32"
            case "under": "33"
            default: "31"
            }
        return "\u{1B}[1;\(code)m\(word)\u{1B}[0m"
    }
}
