/// The pull resistor an input line is requested with.
///
/// Mirrors `GPIOD_LINE_REQUEST_FLAG_BIAS_*` (libgpiod 1.6) and `enum gpiod_line_bias` (2.x);
/// the kernel applies it from Linux 5.5 on.
public enum GPIOBias: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Leave the line's bias as the firmware or device tree set it.
    case asIs = 0
    /// Neither pull-up nor pull-down.
    case disabled = 1
    case pullUp = 2
    case pullDown = 3

    public var description: String {
        switch self {
        case .asIs: "as-is"
        case .disabled: "disabled"
        case .pullUp: "pull-up"
        case .pullDown: "pull-down"
        }
    }
}
