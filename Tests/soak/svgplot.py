"""SVG plots of a soak, written as plain text: no plotting package on the machine that runs it."""

import math
import os
from xml.sax.saxutils import escape

COLOURS = {"plumscaled": "#1f77b4", "plumscale-mqtt": "#d62728", "plumscale-web": "#2ca02c",
           "left": "#1f77b4", "right": "#ff7f0e"}
WIDTH, HEIGHT, LEFT, RIGHT, TOP, BOTTOM = 900, 360, 70, 20, 40, 50


MAX_DOTS = 800  # per pan: enough to see the drift, small enough to commit the plot


def thin(points):
    return points[::max(1, len(points) // MAX_DOTS)]


def nice_ticks(low, high, count=5):
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = min((m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw), default=raw)
    first = int(low / step) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        if value >= low - step * 1e-9:
            ticks.append(value)
        value += step
    return ticks


class Chart:
    def __init__(self, title, x_label, y_label, x_range, y_range):
        self.parts = []
        self.title, self.x_label, self.y_label = title, x_label, y_label
        self.x0, self.x1 = x_range
        low, high = y_range
        pad = (high - low) * 0.05 or 1
        self.y0, self.y1 = low - pad, high + pad

    def x(self, value):
        return LEFT + (value - self.x0) / ((self.x1 - self.x0) or 1) * (WIDTH - LEFT - RIGHT)

    def y(self, value):
        return HEIGHT - BOTTOM - (value - self.y0) / ((self.y1 - self.y0) or 1) * (HEIGHT - TOP - BOTTOM)

    def line(self, points, colour, width=1.5, step=False):
        if not points:
            return
        path = []
        previous = None
        for px, py in points:
            if step and previous is not None:
                path.append(f"{self.x(px):.1f},{self.y(previous):.1f}")
            path.append(f"{self.x(px):.1f},{self.y(py):.1f}")
            previous = py
        self.parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="{width}" points="{" ".join(path)}"/>')

    def dots(self, points, colour, radius=1.8):
        for px, py in points:
            self.parts.append(f'<circle cx="{self.x(px):.1f}" cy="{self.y(py):.1f}" r="{radius}" fill="{colour}"/>')

    def marker(self, at, label):
        x = self.x(at)
        self.parts.append(f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" stroke="#999" '
                          'stroke-dasharray="3,3"/>')
        self.parts.append(f'<text x="{x + 2:.1f}" y="{TOP + 10}" font-size="9" fill="#666" '
                          f'transform="rotate(90 {x + 2:.1f} {TOP + 10})">{escape(label)}</text>')

    def svg(self, legend):
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
               f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
               f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
               f'<text x="{WIDTH / 2}" y="20" font-size="14" text-anchor="middle">{escape(self.title)}</text>']
        for tick in nice_ticks(self.y0, self.y1):
            y = self.y(tick)
            out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" stroke="#eee"/>')
            out.append(f'<text x="{LEFT - 5}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{tick:g}</text>')
        for tick in nice_ticks(self.x0, self.x1, 8):
            x = self.x(tick)
            out.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" font-size="11" text-anchor="middle">'
                       f'{tick:g}</text>')
        out.append(f'<rect x="{LEFT}" y="{TOP}" width="{WIDTH - LEFT - RIGHT}" height="{HEIGHT - TOP - BOTTOM}" '
                   'fill="none" stroke="#333"/>')
        out.append(f'<text x="{WIDTH / 2}" y="{HEIGHT - 12}" font-size="12" text-anchor="middle">'
                   f'{escape(self.x_label)}</text>')
        out.append(f'<text x="16" y="{HEIGHT / 2}" font-size="12" text-anchor="middle" '
                   f'transform="rotate(-90 16 {HEIGHT / 2})">{escape(self.y_label)}</text>')
        out += self.parts
        for index, (label, colour) in enumerate(legend):
            x = LEFT + 10 + index * 170
            out.append(f'<rect x="{x}" y="{TOP + 6}" width="12" height="4" fill="{colour}"/>')
            out.append(f'<text x="{x + 16}" y="{TOP + 12}" font-size="11">{escape(label)}</text>')
        out.append("</svg>\n")
        return "\n".join(out)


def resource_chart(soak, column, title, y_label, scale=1.0):
    rows = soak.sampler.rows
    names = ("plumscaled", "plumscale-mqtt", "plumscale-web")
    values = [r[column] * scale for r in rows] or [0]
    end = max((r[0] for r in rows), default=1)
    chart = Chart(title, "seconds into the run", y_label, (0, end), (min(values), max(values)))
    for kind, start, _ in soak.faults_done:
        chart.marker(start, kind)
    for name in names:
        for run in sorted({r[3] for r in rows if r[1] == name}):  # one line per start of the process
            chart.line([(r[0], r[column] * scale) for r in rows if r[1] == name and r[3] == run], COLOURS[name])
    return chart.svg([(name, COLOURS[name]) for name in names])


def weight_chart(soak):
    weights = soak.weights
    end = max((w[0] for w in weights), default=1)
    values = [w[2] for w in weights] + [w[3] for w in weights] or [0]
    chart = Chart("Stable readings (dots) against the script's truth (line), net grams", "seconds into the run",
                  "grams", (0, end), (min(values), max(values)))
    for kind, start, _ in soak.faults_done:
        chart.marker(start, kind)
    for pan in ("left", "right"):
        tare = soak.truth.tare.get(pan, 0.0)
        since = soak.zero_known.get(pan, soak.started) if pan in soak.truth.tare else soak.started
        truth = [(max(t, since) - soak.started, g - tare) for t, g in soak.truth.changes[pan]]
        truth = [point for index, point in enumerate(truth)
                 if index + 1 == len(truth) or truth[index + 1][0] > point[0]]  # the load at `since` on
        truth.append((end, truth[-1][1] if truth else 0))
        chart.line(truth, COLOURS[pan], width=1, step=True)
        chart.dots(thin([(w[0], w[2]) for w in weights if w[1] == pan]), COLOURS[pan])
    return chart.svg([(pan, COLOURS[pan]) for pan in ("left", "right")])


def error_chart(soak):
    """Each stable reading less the truth of its instant: the 1 d band, and the cell's drift and creep."""
    weights = soak.weights
    end = max((w[0] for w in weights), default=1)
    errors = [w[2] - w[3] for w in weights] or [0]
    low, high = min(min(errors), -0.15), max(max(errors), 0.15)
    chart = Chart("Stable reading minus the truth (g); dashed: ±1 d", "seconds into the run", "grams",
                  (0, end), (low, high))
    for kind, start, _ in soak.faults_done:
        chart.marker(start, kind)
    for bound in (-0.1, 0.1):
        chart.parts.append(f'<line x1="{chart.x(0):.1f}" y1="{chart.y(bound):.1f}" x2="{chart.x(end):.1f}" '
                           f'y2="{chart.y(bound):.1f}" stroke="#000" stroke-dasharray="6,3"/>')
    for pan in ("left", "right"):
        chart.dots(thin([(w[0], w[2] - w[3]) for w in weights if w[1] == pan]), COLOURS[pan], radius=1.2)
    return chart.svg([(pan, COLOURS[pan]) for pan in ("left", "right")])


def reconnect_chart(soak):
    worst = {}
    for fault, what, seconds in soak.reconnects:
        worst[f"{fault}: {what}"] = max(worst.get(f"{fault}: {what}", 0), seconds)
    items = sorted(worst.items())
    height = 40 + 22 * len(items)
    top = max(worst.values(), default=1) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" font-family="sans-serif">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="20" font-size="14" text-anchor="middle">Worst time to come back per fault (s)'
           '</text>']
    for index, (label, seconds) in enumerate(items):
        y = 34 + index * 22
        width = seconds / top * (WIDTH - 420)
        out.append(f'<text x="340" y="{y + 13}" font-size="11" text-anchor="end">{escape(label)}</text>')
        out.append(f'<rect x="345" y="{y}" width="{width:.1f}" height="16" fill="#1f77b4"/>')
        out.append(f'<text x="{350 + width:.1f}" y="{y + 13}" font-size="11">{seconds:.2f}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def plots(soak, out):
    files = {"soak-rss.svg": resource_chart(soak, 4, "Resident memory per process", "MiB", 1 / 1024),
             "soak-fds.svg": resource_chart(soak, 5, "Open descriptors per process", "descriptors"),
             "soak-threads.svg": resource_chart(soak, 6, "Threads per process", "threads"),
             "soak-weight.svg": weight_chart(soak),
             "soak-error.svg": error_chart(soak),
             "soak-reconnect.svg": reconnect_chart(soak)}
    for name, text in files.items():
        with open(os.path.join(out, name), "w") as f:
            f.write(text)
