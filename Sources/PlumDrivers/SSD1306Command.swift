/// The SSD1306 command bytes the driver sends (Solomon Systech SSD1306 datasheet rev 1.1, §9
/// "Command Table", and the charge-pump application note), with the datasheet's names.
///
/// Internal: the wire format has one owner, the driver. The chip model in PlumSimulation decodes
/// the same bytes from its own reading of the datasheet, so a mistake here shows up as a
/// difference there instead of agreeing with itself.
enum SSD1306Command {
    /// The I2C control byte (§8.1.5.2): Co = 0, D/C# = 0, so every following byte is a command.
    static let commandStream: UInt8 = 0x00
    /// Co = 0, D/C# = 1: every following byte goes to GDDRAM.
    static let dataStream: UInt8 = 0x40

    /// AEh/AFh: display off (sleep) and on.
    static let displayOff: UInt8 = 0xAE
    static let displayOn: UInt8 = 0xAF
    /// D5h, A[7:0]: display clock divide ratio (A[3:0] + 1) and oscillator frequency (A[7:4]).
    static let setClockDivide: UInt8 = 0xD5
    /// 80h: divide ratio 1, oscillator at its reset value (the application note's setting).
    static let clockDivideDefault: UInt8 = 0x80
    /// A8h, A[5:0]: multiplex ratio, rows − 1 (15–63).
    static let setMultiplex: UInt8 = 0xA8
    /// D3h, A[5:0]: vertical shift by COM.
    static let setDisplayOffset: UInt8 = 0xD3
    /// 40h–7Fh: display start line 0–63.
    static let startLine0: UInt8 = 0x40
    /// 8Dh, A[7:0]: charge pump setting; 14h enables it, 10h disables it.
    static let chargePump: UInt8 = 0x8D
    static let chargePumpEnable: UInt8 = 0x14
    /// 20h, A[1:0]: memory addressing mode; 02h is page addressing.
    static let setAddressingMode: UInt8 = 0x20
    static let pageAddressing: UInt8 = 0x02
    /// A0h/A1h: column address 0 drives SEG0, or SEG127.
    static let segmentRemapOff: UInt8 = 0xA0
    static let segmentRemapOn: UInt8 = 0xA1
    /// C0h/C8h: COM output scan from COM0 to COM[N−1], or from COM[N−1] to COM0.
    static let comScanNormal: UInt8 = 0xC0
    static let comScanRemapped: UInt8 = 0xC8
    /// DAh, A[5:4]: COM pins hardware configuration (§10.1.18).
    static let setComPins: UInt8 = 0xDA
    /// Alternative COM pin configuration, no left/right remap: the 128 × 64 modules' wiring.
    static let comPinsAlternative: UInt8 = 0x12
    /// Sequential COM pin configuration, no left/right remap: the 128 × 32 modules' wiring.
    static let comPinsSequential: UInt8 = 0x02
    /// 81h, A[7:0]: contrast.
    static let setContrast: UInt8 = 0x81
    /// D9h, A[7:0]: pre-charge period; F1h suits the internal charge pump (application note).
    static let setPrecharge: UInt8 = 0xD9
    static let prechargeInternalPump: UInt8 = 0xF1
    /// DBh, A[6:4]: V_COMH deselect level; 40h as the application note and most modules use.
    static let setVcomhDeselect: UInt8 = 0xDB
    static let vcomhDefault: UInt8 = 0x40
    /// A4h: the display follows GDDRAM (A5h would light every pixel).
    static let resumeFromRAM: UInt8 = 0xA4
    /// A6h: normal display, a 1 bit lit (A7h inverts).
    static let normalDisplay: UInt8 = 0xA6
    /// 2Eh: deactivate scroll; a scroll left running by an earlier program would corrupt writes.
    static let deactivateScroll: UInt8 = 0x2E
    /// B0h–B7h: page start address in page addressing mode.
    static let pageStart0: UInt8 = 0xB0
    /// 00h–0Fh: lower nibble of the column start address in page addressing mode.
    static let columnLow: UInt8 = 0x00
    /// 10h–1Fh: higher nibble of the column start address in page addressing mode.
    static let columnHigh: UInt8 = 0x10
}
