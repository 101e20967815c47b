public import PlumDrivers
public import PlumHardware

extension HX711Model {
    /// The chip, its input and its wiring.
    public struct Configuration: Sendable {
        /// The RATE pin.
        public var rate: HX711Rate = .sps10
        /// Analog supply, which also excites the bridge, in volts (3.3 V on a Pi-powered board).
        public var avdd: Double = 3.3
        public var loadCell = LoadCell()
        /// Channel B's differential input, in volts.
        public var channelBVolts: Double = 0.5e-3
        /// Input-referred noise at gain 128 in volts rms; `nil` is the datasheet's figure for
        /// the rate. Not specified at other gains: assumed constant in counts (scaled by
        /// 128/gain at the input), the pessimistic reading.
        public var inputNoise: Double?
        public var settlingConversions: Int = 4
        /// PD_SCK high time after which the chip powers down: 60 µs on a real HX711; raise it
        /// only to emulate a slow bus.
        public var powerDownThreshold: Duration = .microseconds(60)
        /// Virtual time each line operation takes; use zero with a real-time clock.
        public var operationCost: Duration = .microseconds(1)
        public var seed: UInt64 = 0x5EED_0711
        /// Which DOUT edges become events (the driver needs falling).
        public var edgeDetection: EdgeDetection = .falling
        /// The DOUT line offset events carry.
        public var doutOffset: UInt32 = 5
        /// How many recent conversions ``conversionLog`` keeps (0: none).
        public var conversionLogLimit: Int = 0

        public init() {}
    }
}
