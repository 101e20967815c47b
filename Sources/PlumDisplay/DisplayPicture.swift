/// What the panel should show, whatever the panel: the layouts turn it into pixels or
/// characters. A value, so "nothing changed" is `==` and draws nothing.
package struct DisplayPicture: Hashable, Sendable {
    /// The main part of the screen.
    package enum Body: Hashable, Sendable {
        /// The pans, in the configured order.
        case pans([PanPicture])
        /// No weights to show: a title ("plumscaled not running") and what to do or where to look.
        case message(title: String, lines: [String])
    }

    package var body: Body
    /// A running session: its name, its count and its last item; nil without one.
    package var session: SessionLine?

    package init(body: Body, session: SessionLine? = nil) {
        self.body = body
        self.session = session
    }
}

/// One pan as the display shows it.
package struct PanPicture: Hashable, Sendable {
    /// What the big digits hold.
    package enum Reading: Hashable, Sendable {
        /// A weight: the digits as the daemon rounded them ("123.4") and the unit.
        case weight(String, unit: String)
        /// Over the full scale: "100%+", as the 3D Touch scale shows it.
        case overload
        /// Below the zero range.
        case underload
        /// The sensor delivers nothing now: never an old number as if current.
        case noSignal(reason: String)
        /// The daemon still has a last weight, but it is not current.
        case stale(seconds: Double?)
        /// Not calibrated: counts, not grams.
        case uncalibrated
    }

    package var name: String
    package var reading: Reading
    package var stable: Bool
    /// Within a quarter division of true zero (→0←, OIML R76 4.5.5).
    package var centreOfZero: Bool
    /// A tare is in effect: the digits are net.
    package var net: Bool
    /// The heavier pan (Plum-O-Meter's yellow).
    package var heaviest: Bool
    /// The force as a fraction of the full scale (1 = 100 %), for the bar; nil without one.
    package var force: Double?
    /// The ForceSketch hue in degrees, for the bar on a colour panel.
    package var hue: Double
    /// While check-weighing: "UNDER", "OK" or "OVER".
    package var verdict: String?
    /// While counting: the pieces, or "?" when they cannot be told.
    package var count: String?

    package init(
        name: String, reading: Reading, stable: Bool = false, centreOfZero: Bool = false, net: Bool = false,
        heaviest: Bool = false, force: Double? = nil, hue: Double = 0, verdict: String? = nil, count: String? = nil
    ) {
        self.name = name
        self.reading = reading
        self.stable = stable
        self.centreOfZero = centreOfZero
        self.net = net
        self.heaviest = heaviest
        self.force = force
        self.hue = hue
        self.verdict = verdict
        self.count = count
    }

    /// The big text: the digits, "100%+", "----" with nothing to show.
    package var digits: String {
        switch reading {
        case .weight(let digits, _): digits
        case .overload: "100%+"
        case .underload: "----"
        case .noSignal, .stale: "----"
        case .uncalibrated: "----"
        }
    }

    /// The unit beside the digits; empty when they are no weight.
    package var unit: String {
        if case .weight(_, let unit) = reading { return unit }
        return ""
    }

    /// The short word under the digits when they are no weight: "no signal", "stale", …
    package var status: String? {
        switch reading {
        case .weight: nil
        case .overload: "overload"
        case .underload: "underload"
        case .noSignal: "no signal"
        case .stale: "stale"
        case .uncalibrated: "not calibrated"
        }
    }
}

/// A running session, on one line.
package struct SessionLine: Hashable, Sendable {
    package var name: String
    package var count: Int
    /// The last item's weight as shown ("87.3 g"); nil before the first.
    package var lastItem: String?

    package init(name: String, count: Int, lastItem: String?) {
        self.name = name
        self.count = count
        self.lastItem = lastItem
    }

    /// "crate-12 #14 87.3 g", cut to `width` characters.
    package func text(width: Int) -> String {
        var line = "\(name) #\(count)"
        if let lastItem { line += " \(lastItem)" }
        if line.count > width {
            // Keep the count and the item; shorten the name.
            let tail = " #\(count)" + (lastItem.map { " \($0)" } ?? "")
            let room = max(1, width - tail.count)
            line = String(name.prefix(room)) + tail
        }
        return String(line.prefix(width))
    }
}
