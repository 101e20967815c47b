"""Judges the display checks of the kernel tests (guest.sh's display section) on the host.

display.fb-vfb, display.fb-vfb-32: `plumscale-display --check` drew on the kernel's virtual
framebuffer (vfb) and wrote, with --check-out, the PPM it read back. The guest also copied
/dev/fbN raw and asked the kernel for its format itself (sysfs: bits_per_pixel, stride;
FBIOGET_VSCREENINFO from Python: the channels' offsets and lengths); here the raw bytes are
decoded with that format and must equal the PPM.

display.ssd1306-i2c-stub: the same program drove an SSD1306 at 0x3c on i2c-stub while the
kernel's smbus_write tracepoint recorded every transfer. The trace is replayed into a 128x64
GDDRAM (control byte 0x00: commands, 0x40: data; page addressing 0xB0|page, 0x00|low and
0x10|high column; 0x20 memory mode, 0x21 column range, 0x22 page range), which must equal the
PBM that the simulated panel writes for the same check screen.
"""
import re
from pathlib import Path


def _tokens(data):
    """netpbm tokens, without # comments."""
    text = re.sub(rb"#[^\n]*", b" ", data)
    return text.split()


def read_ppm(path):
    """A plain PPM (P3) as (width, height, [(r, g, b), ...] row-major), or None."""
    try:
        t = _tokens(Path(path).read_bytes())
    except OSError:
        return None
    if len(t) < 4 or t[0] != b"P3":
        return None
    w, h, top = int(t[1]), int(t[2]), int(t[3])
    values = [int(v) * 255 // top for v in t[4:4 + 3 * w * h]]
    if len(values) != 3 * w * h:
        return None
    return w, h, [tuple(values[i:i + 3]) for i in range(0, len(values), 3)]


def read_pbm(path):
    """A plain PBM (P1) as (width, height, [0/1, ...] row-major, 1 lit), or None."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    t = _tokens(data)
    if len(t) < 3 or t[0] != b"P1":
        return None
    w, h = int(t[1]), int(t[2])
    bits = [int(c) for c in b"".join(t[3:]).decode() if c in "01"]
    return (w, h, bits[:w * h]) if len(bits) >= w * h else None


def info_file(path):
    d = {}
    try:
        for line in Path(path).read_text().splitlines():
            k, _, v = line.partition("=")
            d[k] = v
    except OSError:
        pass
    return d


def widen(bits, length):
    """A channel's `length` bits as 8 bits, its top bits repeated (RGB565's 5 bits 11111 -> 255)."""
    value, filled = 0, 0
    while filled < 8:
        shift = 8 - filled - length
        value |= bits << shift if shift >= 0 else bits >> -shift
        filled += length
    return value & 0xFF


def decode_fb(raw, width, height, bpp, stride, channels):
    """The memory as colours, little-endian pixel values, each channel where the kernel's
    FBIOGET_VSCREENINFO puts it (`channels`: name -> (offset, length)). When red, green and blue
    share their bits (grayscale, or vfb's 8 bpp palette) the value is a grey level."""
    pixels = []
    size = bpp // 8
    red, green, blue = channels["red"], channels["green"], channels["blue"]
    grey = red == green == blue
    for y in range(height):
        row = raw[y * stride:y * stride + width * size]
        for x in range(width):
            v = int.from_bytes(row[x * size:(x + 1) * size], "little")
            if grey:
                level = component(v, red[0], red[1] or bpp)
                pixels.append((level, level, level))
            else:
                pixels.append(tuple(component(v, *c) for c in (red, green, blue)))
    return pixels


def component(value, offset, length):
    """A channel's bits as 8 bits: widened when narrower, its top 8 when wider."""
    bits = value >> offset & ((1 << length) - 1)
    return bits >> (length - 8) if length >= 8 else widen(bits, length)


def luma(rgb):
    r, g, b = rgb
    return (299 * r + 587 * g + 114 * b) // 1000


def framebuffer_check(runs, name, add):
    """One vfb run: the program's read-back equals the raw memory decoded here."""
    rc = (runs / f"{name}.rc").read_text().strip() if (runs / f"{name}.rc").exists() else ""
    if not rc:
        return None
    err = (runs / f"{name}.err").read_text(errors="replace").strip() if (runs / f"{name}.err").exists() else ""
    info = info_file(runs / f"{name}.info")
    ppm = read_ppm(runs / f"{name}.ppm")
    try:
        raw = (runs / f"{name}.raw").read_bytes()
    except OSError:
        raw = b""
    if rc != "0" or ppm is None or not info.get("bits_per_pixel"):
        add("FAIL", f"display.{name}", f"rc={rc}, PPM {'read' if ppm else 'missing'}, {info}; stderr: {err[-300:]}")
        return None
    bpp = int(info["bits_per_pixel"])
    width, height = (int(v) for v in info["virtual_size"].split(","))
    stride = int(info["stride"])
    pw, ph, shown = ppm
    if (pw, ph) != (width, height) or len(raw) < stride * height or bpp not in (8, 16, 24, 32):
        add("FAIL", f"display.{name}", f"PPM {pw}x{ph}, device {width}x{height} at {bpp} bpp, "
            f"{len(raw)} raw bytes (stride {stride})")
        return None
    channels = {c: tuple(int(v) for v in info.get(c, "0,0").split(",")) for c in ("red", "green", "blue")}
    memory = decode_fb(raw, width, height, bpp, stride, channels)
    wrong = sum(a != b for a, b in zip(memory, shown))
    colours = len(set(memory))
    lit = sum(p != (0, 0, 0) for p in memory)
    ok = wrong == 0 and colours >= 2 and lit > 0
    add("PASS" if ok else "FAIL", f"display.{name}",
        f"{info.get('device')} {width}x{height} at {bpp} bpp (red {channels['red']}, green {channels['green']}, "
        f"blue {channels['blue']}): {wrong} of {width * height} pixels of /dev/fb "
        f"differ from the program's read-back; {colours} colours, {lit} pixels not black "
        f"(want 0 differing, a picture)")
    return (width, height, bpp, memory) if ok else None


def ssd1306_replay(trace_text, address=0x3C, width=128, pages=8):
    """Replays smbus_write events to `address` into a GDDRAM; returns (ram, transfers, data bytes)."""
    ram = [[None] * width for _ in range(pages)]
    mode = 2  # page addressing after reset
    col_start, col_end, page_start, page_end = 0, width - 1, 0, pages - 1
    col, page = 0, 0
    pending = []  # the command waiting for its arguments, then the arguments so far
    arguments = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
                 0xDA: 1, 0xDB: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5}
    pattern = re.compile(r"smbus_write: i2c-(\d+) a=([0-9a-f]+) f=([0-9a-f]+) c=([0-9a-f]+) (\S+) l=(\d+) \[([0-9a-f-]*)\]")
    transfers, data_bytes = 0, 0
    for line in trace_text.splitlines():
        m = pattern.search(line)
        if not m or int(m.group(2), 16) != address:
            continue
        control, protocol = int(m.group(4), 16), m.group(5)
        buf = [int(b, 16) for b in m.group(7).split("-") if b]
        if protocol in ("I2C_BLOCK_DATA", "BLOCK_DATA"):
            payload = buf[1:1 + buf[0]] if buf else []  # block[0] is the length
        elif protocol == "BYTE_DATA":
            payload = buf[:1]
        elif protocol == "WORD_DATA":
            payload = buf[:2]
        else:
            continue
        transfers += 1
        if control & 0x40:  # data
            for byte in payload:
                data_bytes += 1
                if 0 <= page < pages and 0 <= col < width:
                    ram[page][col] = byte
                if mode == 0:  # horizontal
                    col += 1
                    if col > col_end:
                        col, page = col_start, page + 1
                        if page > page_end:
                            page = page_start
                elif mode == 1:  # vertical
                    page += 1
                    if page > page_end:
                        page, col = page_start, col + 1
                        if col > col_end:
                            col = col_start
                else:  # page addressing: the column wraps, the page stays
                    col = col + 1 if col < width - 1 else 0
            continue
        for byte in payload:
            if pending:
                pending.append(byte)
                command = pending[0]
                if len(pending) - 1 < arguments[command]:
                    continue
                args, pending = pending[1:], []
                if command == 0x20:
                    mode = args[0] & 0x03
                elif command == 0x21:
                    col_start, col_end = args[0] & 0x7F, args[1] & 0x7F
                    col = col_start
                elif command == 0x22:
                    page_start, page_end = args[0] & 0x07, args[1] & 0x07
                    page = page_start
            elif byte in arguments:
                pending = [byte]
            elif 0xB0 <= byte <= 0xB7:
                page = byte & 0x07
            elif byte <= 0x0F:
                col = (col & 0xF0) | byte
            elif byte <= 0x1F:
                col = (col & 0x0F) | (byte & 0x0F) << 4
    return ram, transfers, data_bytes


def ssd1306_check(runs, add):
    if not (runs / "ssd1306.rc").exists():
        return
    rc = (runs / "ssd1306.rc").read_text().strip()
    model_rc = (runs / "ssd1306-model.rc").read_text().strip() if (runs / "ssd1306-model.rc").exists() else "?"
    err = (runs / "ssd1306.err").read_text(errors="replace").strip()[-300:] if (runs / "ssd1306.err").exists() else ""
    trace = (runs / "ssd1306.trace").read_text(errors="replace") if (runs / "ssd1306.trace").exists() else ""
    model = read_pbm(runs / "ssd1306-model.pbm")
    ram, transfers, data_bytes = ssd1306_replay(trace)
    if rc != "0" or model_rc != "0" or model is None or model[:2] != (128, 64):
        add("FAIL", "display.ssd1306-i2c-stub",
            f"rc={rc}, simulated rc={model_rc}, model PBM {model[:2] if model else 'missing'}; stderr: {err}")
        return
    unwritten = sum(b is None for row in ram for b in row)
    wrong = 0
    for y in range(64):
        for x in range(128):
            byte = ram[y // 8][x] or 0
            wrong += (byte >> (y % 8) & 1) != model[2][y * 128 + x]
    lit = sum(model[2])
    ok = wrong == 0 and unwritten == 0 and lit > 0
    add("PASS" if ok else "FAIL", "display.ssd1306-i2c-stub",
        f"{transfers} SMBus writes to 0x3c traced, {data_bytes} data bytes; the replayed GDDRAM has "
        f"{unwritten} of 1024 bytes never written and {wrong} of 8192 pixels differing from the simulated "
        f"panel's PBM ({lit} lit) (want 0, 0, a picture)")


def display_checks(runs, add):
    """Adds the display checks' verdicts; nothing when the guest did not run them."""
    grey = framebuffer_check(runs, "fb-vfb", add)
    colour = framebuffer_check(runs, "fb-vfb-32", add)
    if grey and colour and grey[:2] == colour[:2] and grey[2] == 8:
        # One check screen per panel size: the 8 bpp frame is the 32 bpp one's grey levels.
        differ = sum(g[0] != luma(c) for g, c in zip(grey[3], colour[3]))
        add("PASS" if differ == 0 else "FAIL", "display.fb-vfb-same-picture",
            f"{differ} pixels of the 8 bpp frame differ from the BT.601 luma of the 32 bpp frame (want 0)")
    ssd1306_check(runs, add)
