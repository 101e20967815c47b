#!/usr/bin/env python3
"""plumscale-web in a real browser: headless Chromium, driven by chromedriver through selenium,
against the real plumscaled --simulate (two pans with plums coming and going).

usage: test_web.py [--bin DIR] [--screenshot FILE] [--session-screenshot FILE]

Checks, each waiting for its signal with a deadline (never a fixed sleep):
  1. the page shows two pans whose grams change live;
  2. the heaviest pan is marked: its card has the heaviest class and says "heaviest";
  3. each pan's hour chart has axes with values: gram labels at a round step (1, 2 or 5 × 10^k g) that
     increase upward, HH:MM labels of the browser's local clock at a round step of minutes, in order, none
     overlapping, on a desktop and a phone width; it draws the minutes the service recorded itself beside
     an hour seeded before the stack started; no data, one minute and a flat line each draw honestly;
  4. the screenshot's pixels inside the heaviest card are the page's yellow (taken once the charts
     have history);
  5. after logging in, Tare on a stable pan makes it read 0.0 g;
  6. /metrics and /api/poll answer for scripts;
  7. a weighing session of 30 plums on a pan whose load the test writes: every item in the page
     within 1 d of its truth, the class histogram and the figures right, 30 rows in the CSV;
  8. the first run: an admin who logs in on a scale that is not set up sees setup's steps (the
     real `plumscale setup --serve` behind a socket that starts it per connection, as systemd's
     plumscale-setup.socket does), chooses the sensor found, applies, and the calibration wizard opens.
Prints 'browser: N passed, N failed' and exits non-zero on any failure.
"""
import argparse, json, math, os, random, re, shutil, socket, sqlite3, subprocess, sys, tempfile, threading, time, traceback
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_pixels import read_png  # noqa: E402

YELLOW = (0xFF, 0xE6, 0x00)  # --heaviest in the page's style


def wait_until(what, predicate, seconds=30.0, interval=0.1):
    """Polls predicate until it returns a truthy value; fails naming what was awaited."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except Exception as error:  # a stale element while the page redraws: try again
            last = error
        time.sleep(interval)
    raise AssertionError(f"timed out after {seconds:.0f} s waiting for {what} (last: {last!r})")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    """plumscaled --simulate and plumscale-web on a free port, in a temporary directory."""

    def __init__(self, bin_dir, sensors=None, web_settings="", history=None):
        """`sensors`: the daemon's [[sensor]] tables, in place of --simulate's two pans; `web_settings`: more
        keys of [web] ({dir} is the stack's directory); `history`: a function of the minute the stack starts
        in (seconds since the epoch) giving minute_summary rows (sensor, minute, min, mean, max, samples) to
        put in the history before then: the service makes its file, stops, and starts again on it with them,
        as Tests/web-load/history-memory.sh seeds a year."""
        self.started_minute = int(time.time()) // 60 * 60
        self.dir = tempfile.mkdtemp(prefix="plumweb-browser-")
        self.processes = []
        self.socket = os.path.join(self.dir, "plumscale.sock")
        self.port = free_port()
        self.password = "plum-browser-test"
        if sensors is None:
            source = ["--simulate"]
        else:
            with open(os.path.join(self.dir, "daemon.toml"), "w") as f:
                f.write(sensors.replace("{dir}", self.dir))
            source = ["--config", os.path.join(self.dir, "daemon.toml")]
        self.daemon = self.start([os.path.join(bin_dir, "plumscaled")] + source + ["--socket", self.socket,
                                  "--state-directory", os.path.join(self.dir, "state")], "daemon.log")
        wait_until("plumscaled's socket", lambda: os.path.exists(self.socket))
        hashed = subprocess.run([os.path.join(bin_dir, "plumscale-web"), "hash-password", "--cost", "10"],
                                input=self.password + "\n", capture_output=True, text=True, check=True).stdout
        with open(os.path.join(self.dir, "web-password"), "w") as f:
            f.write(hashed)
        with open(os.path.join(self.dir, "plumscale.toml"), "w") as f:
            f.write(f'[web]\nlisten = "127.0.0.1:{self.port}"\nauth_file = "{self.dir}/web-password"\n'
                    f'history = "{self.dir}/history.sqlite"\nretention_days = 1\n'
                    + web_settings.replace("{dir}", self.dir))
        self.url = f"http://127.0.0.1:{self.port}"
        web = [os.path.join(bin_dir, "plumscale-web"), "--config", os.path.join(self.dir, "plumscale.toml"),
               "--socket", self.socket]
        self.web = self.start(web, "web.log")
        wait_until("plumscale-web to answer", lambda: self.get("/api/poll"))
        if history:
            self.web.terminate()  # a stop writes what waits: the file has its schema and this minute's rows
            self.web.wait(10)
            self.processes.remove(self.web)
            with sqlite3.connect(os.path.join(self.dir, "history.sqlite")) as db:
                db.executemany("INSERT OR IGNORE INTO minute_summary (sensor, minute, min, mean, max, samples) "
                               "VALUES (?, ?, ?, ?, ?, ?)", history(self.started_minute))
            db.close()
            self.web = self.start(web, "web.log")
            wait_until("plumscale-web to answer again", lambda: self.get("/api/poll"))

    def start(self, command, log):
        process = subprocess.Popen(command, stdout=open(os.path.join(self.dir, log), "w"), stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=5) as response:
            return response.read().decode()

    def stop(self, keep_logs):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        if keep_logs:
            for log in ("daemon.log", "web.log"):
                print(f"--- {log}\n" + open(os.path.join(self.dir, log)).read()[-3000:])
        shutil.rmtree(self.dir, ignore_errors=True)


def simulated_hour(started_minute):
    """The hour before `started_minute` of --simulate's two pans as the service summarises them: plums of
    60 to 120 g coming and going every few seconds, so each minute runs from the ringing's undershoot
    below 0 g to its overshoot near 150 g, its mean about 50 g (seeded, the same hour every run)."""
    generator = random.Random(7)
    return [(sensor, started_minute - 60 * back, round(generator.uniform(-8, -4), 1),
             round(generator.uniform(40, 60), 3), round(generator.uniform(140, 158), 1), 4800)
            for back in range(59, 0, -1) for sensor in ("left", "right")]


def browser():
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=900,760", "--force-device-scale-factor=1", "--hide-scrollbars"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def cards(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#pans .pan")


def grams_texts(driver):
    return tuple(card.find_element(By.CLASS_NAME, "grams").text for card in cards(driver))


def check_live_pans(driver, stack):
    driver.get(stack.url + "/")
    wait_until("two pan cards", lambda: len(cards(driver)) == 2)
    names = [card.find_element(By.CLASS_NAME, "name").text for card in cards(driver)]
    assert names == ["left", "right"], f"pans {names}"
    wait_until("grams on both pans", lambda: all(text.endswith(" g") or text == "100%+" for text in grams_texts(driver)))
    first = grams_texts(driver)
    wait_until("the grams to change live", lambda: grams_texts(driver) != first, seconds=60)
    assert driver.find_element(By.ID, "link").text == "live", "the link badge says live"


def heaviest_card(driver):
    marked = [card for card in cards(driver) if "heaviest" in card.get_attribute("class").split()]
    return marked[0] if len(marked) == 1 else None


def check_heaviest(driver, stack):
    # The heaviest pan changes as plums come and go: each check reads one moment's card.
    def marked():
        card = heaviest_card(driver)
        if card is None:
            return None
        label = card.find_element(By.CLASS_NAME, "heaviest-label")
        return card if label.is_displayed() and label.text.lower() == "heaviest" else None
    wait_until("exactly one pan marked heaviest, by its class and in text", marked, seconds=60)

    def agrees():
        card = marked()
        poll = json.loads(stack.get("/api/poll"))
        names = [w["sensor"] for w in poll["weights"] if w["heaviest"]]
        return card is not None and card.find_element(By.CLASS_NAME, "name").text in names
    wait_until("the page and the daemon to agree on the heaviest pan", agrees, seconds=60)


CHART_LABELS = """
const chart = arguments[0];
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
return { svg: box(chart), minutes: chart.dataset.minutes, newest: chart.dataset.newest,
         empty: [...chart.querySelectorAll("text.empty")].map((e) => e.textContent),
         dots: chart.querySelectorAll("circle.dot").length, lines: chart.querySelectorAll("polyline.mean").length,
         y: [...chart.querySelectorAll("text.y-label")].map((e) => [e.textContent, box(e)]),
         x: [...chart.querySelectorAll("text.x-label")].map((e) => [e.textContent, box(e)]),
         now: (() => { const d = new Date(); return d.getHours() * 60 + d.getMinutes(); })() };
"""


def round_step(step):
    """Whether `step` is 1, 2 or 5 × 10^k."""
    power = 10 ** math.floor(math.log10(step) + 1e-9)
    return any(abs(step - m * power) <= 1e-6 * power for m in (1, 2, 5))


def check_axes(chart, where):
    """The labels of one drawn chart (CHART_LABELS): grams at a round step increasing upward, local HH:MM at a
    round step of minutes in order and within the last hour, every label inside the chart and none on another.
    Returns (lowest, highest) gram label."""
    grams = []
    for text, box in chart["y"]:
        assert re.fullmatch(r"-?\d+(\.\d+)? g", text), f"{where}: gram label {text!r}"
        grams.append((-(box[1] + box[3]) / 2, float(text[:-2])))  # upward first: minus the label's middle
    grams = [g for _, g in sorted(grams)]
    assert len(grams) >= 2, f"{where}: gram labels {chart['y']}"
    steps = [round(b - a, 6) for a, b in zip(grams, grams[1:])]
    assert all(step > 0 for step in steps), f"{where}: the gram labels do not increase upward: {grams}"
    assert len(set(steps)) == 1 and round_step(steps[0]), f"{where}: gram steps {steps} are not one round step"
    times = []
    for text, box in sorted(chart["x"], key=lambda label: label[1][0]):
        assert re.fullmatch(r"\d\d:\d\d", text), f"{where}: time label {text!r}"
        times.append(int(text[:2]) * 60 + int(text[3:]))
    assert len(times) >= 3, f"{where}: time labels {chart['x']}"
    gaps = [(b - a) % 1440 for a, b in zip(times, times[1:])]
    assert len(set(gaps)) == 1 and gaps[0] in (5, 10, 15, 20, 30), f"{where}: minutes between the times {times}"
    assert all(t % gaps[0] == 0 for t in times), f"{where}: the times {times} are not whole multiples of {gaps[0]}"
    assert all((chart["now"] - t) % 1440 <= 60 for t in times), f"{where}: times {times} outside the last hour"
    boxes = [box for _, box in chart["y"] + chart["x"]]
    svg = chart["svg"]
    for box in boxes:
        assert svg[0] <= box[0] and box[2] <= svg[2] and svg[1] <= box[1] and box[3] <= svg[3], \
            f"{where}: a label at {box} is outside the chart {svg}"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], f"{where}: labels at {a} and {b} overlap"
    return grams[0], grams[-1], steps[0]


def check_history_chart(driver, stack):
    """Each pan's chart, once the service has closed a minute of its own after the seeded hour: a band and a
    mean line, on axes with values that cover the minutes /api/history gives; the same at a phone's width;
    then drawChart on no data, one minute and a flat line."""
    def drawn(card):
        chart = driver.execute_script(CHART_LABELS, card.find_element(By.CLASS_NAME, "chart"))
        # A minute after the one the stack started in: the running service closed it (the seeded hour ends
        # before, and the first start's stop may have written its few seconds of the starting minute).
        return chart if chart["newest"] and int(chart["newest"]) > stack.started_minute else None
    for width, height in ((900, 760), (390, 844)):
        driver.set_window_size(width, height)
        for card in cards(driver):
            sensor = card.find_element(By.CLASS_NAME, "name").text
            where = f"{sensor}'s chart at {width} px"
            chart = wait_until(f"{where} to draw a minute the service recorded itself", lambda: drawn(card),
                               seconds=150, interval=0.5)
            assert chart["lines"] >= 1 and not chart["empty"], f"{where}: {chart}"

            def covered():
                chart = drawn(card)
                low, high, step = check_axes(chart, where)
                rows = json.loads(stack.get(f"/api/history?format=json&since=1h&sensor={sensor}"))
                if len(rows) != int(chart["minutes"]):
                    return None  # a minute closed or left the hour between the two looks
                data = (min(r["min"] for r in rows), max(r["max"] for r in rows))
                assert low - step < data[0] and data[1] < high + step, \
                    f"{where}: gram labels {low}..{high} (step {step}) do not span the minutes' {data}"
                return True
            wait_until(f"{where}'s axes to match /api/history", covered)
    driver.set_window_size(900, 760)

    # The cases the simulated pans never show, drawn by the page's own drawChart in a chart of a card's size.
    cases = driver.execute_script("""
        const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        svg.setAttribute("class", "chart");
        svg.style.width = "330px";
        document.body.appendChild(svg);
        const now = Date.now() / 1000, minute = Math.floor(now / 60) * 60 - 120;
        const flat = [...Array(10).keys()].map((i) => ({ epoch: minute - 60 * i, min: 100, mean: 100, max: 100 }));
        const cases = {};
        for (const [name, rows] of [["none", []], ["unread", null], ["one", [{ epoch: minute, min: 87.1, mean: 87.3, max: 87.4 }]],
                                    ["flat", flat.reverse()]]) {
          drawChart(svg, rows, now);
          cases[name] = (() => { %s })();
        }
        svg.remove();
        return cases;
    """ % CHART_LABELS.replace("arguments[0]", "svg"))
    for name in ("none", "unread"):
        case = cases[name]
        expected = "no readings in the last hour" if name == "none" else "the history could not be read"
        assert case["empty"] == [expected] and not case["y"] and not case["lines"] and not case["dots"], f"{name}: {case}"
        assert len(case["x"]) >= 3, f"{name}: the time axis stays: {case}"
    one = cases["one"]
    low, high, _ = check_axes(one, "one minute")
    assert one["dots"] == 1 and not one["lines"] and low < 87.3 < high, f"one minute: {one}"
    flat = cases["flat"]
    low, high, _ = check_axes(flat, "a flat line")
    assert flat["lines"] == 1 and low < 100 < high and high - low <= 2, f"a flat line at 100 g: {flat}"


def check_item_table_on_a_phone(driver, stack):
    """The live list of fruit placed and removed at a phone's width: no cell's text runs into the next
    (each cell's text fits its cell), the table scrolls sideways instead."""
    driver.set_window_size(390, 844)
    try:
        def overflowing():
            cells = driver.execute_script("""
                const rows = [...document.querySelectorAll('#item-events thead tr, #item-events tbody tr')];
                if (rows.length < 2) return null;
                return rows.flatMap(row => [...row.children].map(cell =>
                    ({text: cell.textContent, fits: cell.scrollWidth <= cell.clientWidth + 1})));""")
            return cells
        cells = wait_until("the live list to show a fruit at a phone's width", overflowing, seconds=60, interval=0.5)
        bad = [cell["text"] for cell in cells if not cell["fits"]]
        assert not bad, f"at 390 px these cells' text runs out of its cell: {bad[:8]}"
    finally:
        driver.set_window_size(900, 760)


def check_screenshot(driver, stack, path):
    def yellow_points(rect, png):
        """Inside the card's padding, clear of text: the top-left and right edges of the card."""
        width, height, rows = read_png(png)
        points = [(int(rect["x"] + 8), int(rect["y"] + 8)),
                  (int(rect["x"] + rect["width"] - 10), int(rect["y"] + 10)),
                  (int(rect["x"] + 8), int(rect["y"] + rect["height"] - 10))]
        for x, y in points:
            pixel = rows[y][x]
            if not all(abs(a - b) <= 6 for a, b in zip(pixel, YELLOW)):
                raise AssertionError(f"pixel at {x},{y} of the heaviest card is {pixel}, not yellow")
        return rows

    def capture():
        # The heaviest card and the screenshot must be of the same moment: take both, then
        # check the card is still the one marked and has not moved or changed size (a reflow
        # between the measure and the picture once put a point outside the card). While two
        # pans settle at once the mark can pass to the other pan and back between the two
        # looks, so a picture whose card is not yellow is taken again, until the deadline; one
        # that never shows it yellow fails, naming the pixel.
        # The other cards are those of the same moment too: read after the picture, the mark
        # may have passed to another pan, which was then taken for "the other card".
        card = heaviest_card(driver)
        if card is None or not all(c.find_element(By.CLASS_NAME, "chart").get_attribute("data-newest")
                                   for c in cards(driver)):
            return None  # the charts too: the README's picture shows them with history
        rect = card.rect
        others = [c.rect for c in cards(driver) if c != card]
        png = driver.get_screenshot_as_png()
        if heaviest_card(driver) != card or card.rect != rect:
            return None
        return rect, others, png, yellow_points(rect, png)
    rect, others, png, rows = wait_until("a steady, yellow heaviest card to photograph", capture, seconds=60)
    with open(path, "wb") as f:
        f.write(png)
    for r in others:
        pixel = rows[int(r["y"] + 8)][int(r["x"] + 8)]
        assert pixel != YELLOW, f"the card at {r['x']},{r['y']} is not the heaviest and must not be yellow: {pixel}"


def check_tare(driver, stack):
    form = driver.find_element(By.ID, "login")
    wait_until("the login form", lambda: form.is_displayed())
    driver.find_element(By.ID, "password").send_keys(stack.password)
    driver.find_element(By.ID, "login-button").click()
    wait_until("the pans' actions after login", lambda: all(
        c.find_element(By.CLASS_NAME, "actions").is_displayed() for c in cards(driver)))

    def tared():
        for card in cards(driver):
            stable = "on" in card.find_element(By.CSS_SELECTOR, ".marker.stable").get_attribute("class").split()
            if stable and card.find_element(By.CLASS_NAME, "grams").text != "0.0 g":
                card.find_element(By.CLASS_NAME, "tare").click()
                try:
                    return wait_until("the tared pan to read 0.0 g",
                                      lambda: card.find_element(By.CLASS_NAME, "grams").text == "0.0 g", seconds=5)
                except AssertionError:
                    return None  # a plum arrived in between: try again on the next stable pan
        return None
    wait_until("a stable pan that reads 0.0 g after Tare", tared, seconds=90, interval=0.2)
    message = driver.find_element(By.ID, "message")
    assert not message.is_displayed() or not message.text, f"the page showed an error: {message.text}"


def check_named_tare(driver, stack):
    """After login (check_tare): "Keep tare as…" saves the tared pan's tare under a name; every card's select
    offers it at once (the daemon's TARES report, through the service, to the page); choosing it on the other
    pan puts it into use there, and "(none)" clears it. Each step checked in the daemon's own readings."""
    def tare_of(card):
        return float(card.get_attribute("data-tare") or "0")

    wait_until("a tared pan", lambda: any(tare_of(c) > 0 for c in cards(driver)))
    tared = next(c for c in cards(driver) if tare_of(c) > 0)
    other = next(c for c in cards(driver) if c != tared)
    grams = tare_of(tared)
    tared.find_element(By.CLASS_NAME, "keep-tare").click()
    prompt = wait_until("the name prompt", lambda: driver.switch_to.alert)
    prompt.send_keys("bowl")
    prompt.accept()

    def offered(card):
        return [o.get_attribute("value") for o in card.find_elements(By.CSS_SELECTOR, ".named-tare option")]
    wait_until("both selects offering bowl", lambda: all(offered(c) == ["", "bowl"] for c in cards(driver)))
    library = json.loads(stack.get("/api/tares"))["tares"]
    assert library == [{"name": "bowl", "grams": grams}], f"the daemon's library: {library}, expected bowl {grams} g"
    assert Select(tared.find_element(By.CLASS_NAME, "named-tare")).first_selected_option.get_attribute("value") \
        == "bowl", "the tared pan's select shows the tare it has as bowl"

    Select(other.find_element(By.CLASS_NAME, "named-tare")).select_by_value("bowl")
    wait_until(f"the other pan tared by bowl, {grams} g", lambda: tare_of(other) == grams)
    Select(other.find_element(By.CLASS_NAME, "named-tare")).select_by_value("")
    wait_until("the other pan's tare cleared", lambda: tare_of(other) == 0)
    message = driver.find_element(By.ID, "message")
    assert not message.is_displayed() or not message.text, f"the page showed an error: {message.text}"


def check_api(driver, stack):
    metrics = stack.get("/metrics")
    for name in ('plumscale_weight_grams{sensor="left"}', "plumscale_web_clients", "plumscale_daemon_up 1"):
        assert name in metrics, f"/metrics lacks {name}"
    devices = json.loads(stack.get("/api/devices"))
    wait_until("/api/devices to list both pans",
               lambda: [d["sensor"] for d in json.loads(stack.get("/api/devices"))["devices"]] == ["left", "right"])
    assert devices["connected"], "the service is connected"


PULLED_WIRE = """
[[sensor]]
name = "left"
kind = "simulated-hx711"
load_grams = 152.3
ready_timeout_ms = 300
unplug_file = "{dir}/left.unplugged"

[[sensor]]
name = "right"
kind = "simulated-hx711"
load_grams = 30
seed = 4
"""


def check_pulled_wire(driver, bin_dir):
    """A pan whose wire is pulled shows its state and the daemon's hint where its weight was,
    never the old weight; the other pan keeps weighing; once back, the weight returns."""
    stack = Stack(bin_dir, sensors=PULLED_WIRE)
    try:
        driver.get(stack.url + "/")
        wait_until("two pan cards", lambda: len(cards(driver)) == 2)
        left = cards(driver)[0]

        def near_152():
            text = left.find_element(By.CLASS_NAME, "grams").text
            return text.endswith(" g") and abs(float(text[:-2]) - 152.3) <= 0.5

        wait_until("about 152.3 g on the left pan", near_152)
        open(os.path.join(stack.dir, "left.unplugged"), "w").close()
        state = left.find_element(By.CLASS_NAME, "state")
        wait_until("the left card to show the fault", lambda: "unavailable" in left.get_attribute("class").split())
        grams = left.find_element(By.CLASS_NAME, "grams").text
        assert "152" not in grams, f"the old weight is still shown: {grams!r}"
        assert state.text.startswith(("not-ready", "fault")) and "DOUT" in state.text, f"the hint: {state.text!r}"
        assert "heaviest" not in left.get_attribute("class").split(), "a pan with no weight is not the heaviest"
        right = cards(driver)[1].find_element(By.CLASS_NAME, "grams").text
        assert right.endswith(" g"), f"the right pan keeps weighing: {right!r}"
        os.unlink(os.path.join(stack.dir, "left.unplugged"))
        wait_until("about 152.3 g again", near_152, seconds=60)
        assert "unavailable" not in left.get_attribute("class").split() and state.text == "", state.text
    finally:
        stack.stop(keep_logs=False)


SESSION_PAN = """
[[class]]
name = "small"
min_grams = 0
[[class]]
name = "medium"
min_grams = 35
[[class]]
name = "large"
min_grams = 60

[[sensor]]
name = "pan"
kind = "simulated-hx711"
seed = 11
rate = 80
load_file = "{dir}/pan.grams"
"""


def session_plums(count=30):
    """The plums' true weights as SessionProcessTests makes them (the same seeded generator): 25 to 95 g
    to 0.01 g, none within 0.2 g of a class boundary, so each one's class is certain from its truth."""
    state, plums = 0x5EED_1234, []
    while len(plums) < count:
        state = (state * 6_364_136_223_846_793_005 + 1_442_695_040_888_963_407) % (1 << 64)
        grams = 25 + ((state >> 33) % 7_001) / 100
        if abs(grams - 35) > 0.2 and abs(grams - 60) > 0.2:
            plums.append(grams)
    return plums


def class_of(grams):
    return "large" if grams >= 60 else "medium" if grams >= 35 else "small"


def page_items(driver):
    """The session's items as the page lists them, newest first: (grams, class) from each row."""
    return driver.execute_script(
        'return [...document.querySelectorAll("#session-items tbody tr")]'
        '.map((r) => [parseFloat(r.dataset.grams), r.cells[3].textContent]);')


def newest_event(driver):
    """The newest line of the live list of fruit placed and removed: (seq, event), or None."""
    return driver.execute_script(
        'const r = document.querySelector("#item-events tbody tr");'
        'return r ? [parseInt(r.cells[0].textContent), r.className] : null;')


def check_session(driver, bin_dir, screenshot):
    """After login, Start a session; 30 plums placed and taken off one after another through the pan's load
    file; the page then lists 30 items, each within 1 d (0.1 g) of its truth, the histogram has each class's
    count of the truths, and the figures agree with the items listed; Stop, and the CSV has 30 rows."""
    stack = Stack(bin_dir, sensors=SESSION_PAN)
    load = os.path.join(stack.dir, "pan.grams")
    with open(load, "w") as f:
        f.write("0\n")
    try:
        driver.get(stack.url + "/")
        wait_until("the pan card", lambda: len(cards(driver)) == 1)
        # The item detector measures from its first confirmed level: a second of stable empty-pan readings.
        start = {}

        def settled():
            w = json.loads(stack.get("/api/poll"))["weights"][0]
            if not (w["stable"] and abs(w["grams"]) < 0.5):
                start.clear()
                return False
            return w["time"] >= start.setdefault("time", w["time"]) + 1
        wait_until("a second of a stable empty pan", settled, seconds=60)
        wait_until("the login form", lambda: driver.find_element(By.ID, "login").is_displayed())
        driver.find_element(By.ID, "password").send_keys(stack.password)
        driver.find_element(By.ID, "login-button").click()
        start_form = driver.find_element(By.ID, "session-start")
        wait_until("the session's Start after login", start_form.is_displayed)
        driver.find_element(By.ID, "session-new-name").send_keys("crate-7")
        driver.find_element(By.ID, "session-start-button").click()
        weighing = driver.find_element(By.ID, "weighing")
        wait_until("the session running", lambda: weighing.get_attribute("data-state") == "running")
        assert driver.find_element(By.ID, "session-stop").is_displayed(), "Stop is offered while it runs"

        plums = session_plums()
        for index, grams in enumerate(plums):
            with open(load, "w") as f:
                f.write(f"{grams}\n")
            wait_until(f"plum {index + 1} in the session's list", lambda: len(page_items(driver)) == index + 1)
            placed = newest_event(driver)
            with open(load, "w") as f:
                f.write("0\n")
            wait_until(f"plum {index + 1} taken off", lambda: (lambda e: e and e[1] == "removed" and e[0] > placed[0])(
                newest_event(driver)))

        items = list(reversed(page_items(driver)))
        assert len(items) == 30, f"{len(items)} items listed"
        for number, ((got, weight_class), truth) in enumerate(zip(items, plums), 1):
            assert abs(got - truth) <= 0.1 + 1e-9, f"item {number}: {got} g for a {truth} g plum"
            assert weight_class == class_of(truth), f"item {number}: {weight_class} for a {truth} g plum"
        bars = driver.execute_script(
            'return [...document.querySelectorAll("#session-histogram .class-bar")]'
            '.map((g) => [g.dataset.class, parseInt(g.dataset.count), g.querySelector(".bar-count").textContent]);')
        expected = [[name, sum(class_of(p) == name for p in plums)] for name in ("small", "medium", "large")]
        assert [[b[0], b[1]] for b in bars] == expected, f"histogram {bars}, truths {expected}"
        assert all(b[2] == str(b[1]) for b in bars), f"each bar says its count: {bars}"

        grams = [g for g, _ in items]
        mean = sum(grams) / len(grams)
        deviation = (sum((g - mean) ** 2 for g in grams) / (len(grams) - 1)) ** 0.5

        def figure(name):
            return driver.find_element(By.CSS_SELECTOR, f'#session-stats dd[data-figure="{name}"]').text
        wait_until("the figures of 30 items", lambda: figure("count") == "30")
        for name, value in (("total", sum(grams)), ("mean", mean), ("min", min(grams)), ("max", max(grams)),
                            ("std_dev", deviation)):
            shown = figure(name)
            assert shown.endswith(" g") and abs(float(shown[:-2]) - value) <= 0.051, f"{name} {shown}, items {value}"
        assert figure("heaviest") == f"#{grams.index(max(grams)) + 1}", f"heaviest {figure('heaviest')}"

        driver.find_element(By.ID, "session-stop").click()
        wait_until("the session stopped", lambda: weighing.get_attribute("data-state") == "stopped")
        export = driver.find_element(By.ID, "session-export")
        assert export.is_displayed(), "Export CSV is offered for the stopped session"
        csv = stack.get(export.get_attribute("href").replace(stack.url, ""))
        lines = csv.splitlines()
        assert lines[0] == "item,grams,class,flags,recorded_at" and len(lines) == 31, f"CSV:\n{csv}"
        assert [float(line.split(",")[1]) for line in lines[1:]] == grams, "the CSV's grams are the page's"
        message = driver.find_element(By.ID, "message")
        assert not message.is_displayed() or not message.text, f"the page showed an error: {message.text}"
        if screenshot:
            driver.set_window_size(1000, 1400)
            driver.execute_script('document.getElementById("weighing").scrollIntoView();')
            weighing.screenshot(screenshot)
            driver.set_window_size(900, 760)
    finally:
        stack.stop(keep_logs=False)


class SetupSocket:
    """plumscale-setup.socket as systemd runs it (Accept=yes): each connection gets its own
    `plumscale setup --serve`, the connection as its standard input and output."""

    def __init__(self, path, command, log):
        self.listener = socket.socket(socket.AF_UNIX)
        self.listener.bind(path)
        self.listener.listen(4)
        self.command, self.log = command, log
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return  # closed
            with connection, open(self.log, "a") as log:
                subprocess.Popen(self.command, stdin=connection.fileno(), stdout=connection.fileno(), stderr=log)

    def close(self):
        self.listener.close()


def check_first_run(driver, bin_dir):
    """An admin logs in on a scale whose configuration setup has not written: the page shows the setup steps;
    the probe finds the fake tree's IIO HX711, named "pan" it is previewed and applied, and the calibration
    wizard opens for it. plumscaled already has a simulated pan of that name, which apply waits for."""
    stack = Stack(bin_dir, sensors='[[sensor]]\nname = "pan"\nkind = "simulated-hx711"\nload_grams = 0\n',
                  web_settings='setup_socket = "{dir}/setup.sock"\n')
    tree = os.path.join(stack.dir, "tree", "sys", "bus", "iio", "devices", "iio:device0")
    os.makedirs(tree)
    with open(os.path.join(tree, "name"), "w") as f:
        f.write("hx711\n")
    config = os.path.join(stack.dir, "setup", "plumscale.toml")
    os.makedirs(os.path.dirname(config))
    setup = SetupSocket(os.path.join(stack.dir, "setup.sock"), [
        os.path.join(bin_dir, "plumscale"), "setup", "--serve", "--config", config, "--credentials-dir", stack.dir,
        "--no-systemd", "--probe-root", os.path.join(stack.dir, "tree"), "--socket", stack.socket,
        "--daemon-wait", "30"], os.path.join(stack.dir, "setup.log"))
    try:
        driver.get(stack.url + "/")
        wait_until("the pan card", lambda: len(cards(driver)) == 1)
        assert not driver.find_element(By.ID, "setup").is_displayed(), "no setup steps before login"
        wait_until("the login form", lambda: driver.find_element(By.ID, "login").is_displayed())
        driver.find_element(By.ID, "password").send_keys(stack.password)
        driver.find_element(By.ID, "login-button").click()
        wait_until("the setup steps after login", lambda: driver.find_element(By.ID, "setup").is_displayed())
        assert "not set up" in driver.find_element(By.ID, "setup-state").text
        driver.find_element(By.ID, "setup-watch").click()  # the fake tree has no GPIO chip to watch
        driver.find_element(By.ID, "setup-probe").click()
        wait_until("the probe's choice", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#setup-choices li")) == 1)
        assert "IIO iio:device0 [hx711]" in driver.find_element(By.ID, "setup-found").text
        name = driver.find_element(By.CSS_SELECTOR, "#setup-choices .setup-name")
        name.clear()
        name.send_keys("pan")
        driver.find_element(By.ID, "setup-preview").click()
        wait_until("the file setup writes", lambda: 'name = "pan"' in driver.find_element(By.ID, "setup-diff").text)
        assert not driver.find_element(By.ID, "setup-confirm-line").is_displayed(), "no file there: nothing to confirm"
        driver.find_element(By.ID, "setup-apply").click()
        wait_until("the calibration wizard for pan", lambda: driver.find_element(By.ID, "wizard").is_displayed()
                   and driver.find_element(By.ID, "wizard-sensor").text == "pan", seconds=60)
        assert "set up" in driver.find_element(By.ID, "setup-message").text
        with open(config) as f:
            assert 'name = "pan"' in f.read(), "the configuration written"
        driver.find_element(By.ID, "wizard-cancel").click()
    except Exception:
        for log in ("setup.log", "web.log"):
            path = os.path.join(stack.dir, log)
            if os.path.exists(path):
                print(f"--- {log}\n" + open(path).read()[-3000:])
        raise
    finally:
        setup.close()
        stack.stop(keep_logs=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.environ.get("PLUMSCALE_BIN_DIR", ".build/debug"))
    parser.add_argument("--screenshot", default=os.path.join(tempfile.gettempdir(), "plumscale-web.png"))
    parser.add_argument("--session-screenshot", help="where to save the finished session's section (a PNG)")
    args = parser.parse_args()
    stack = Stack(os.path.abspath(args.bin), history=simulated_hour)
    driver = None
    passed, failed = 0, 0
    try:
        driver = browser()
        checks = [("check_live_pans", check_live_pans), ("check_heaviest", check_heaviest),
                  ("check_history_chart", check_history_chart),
                  ("check_item_table_on_a_phone", check_item_table_on_a_phone),
                  ("check_screenshot", lambda d, s: check_screenshot(d, s, args.screenshot)),
                  ("check_tare", check_tare), ("check_named_tare", check_named_tare), ("check_api", check_api),
                  ("check_pulled_wire", lambda d, s: check_pulled_wire(d, os.path.abspath(args.bin))),
                  ("check_session", lambda d, s: check_session(d, os.path.abspath(args.bin), args.session_screenshot)),
                  ("check_first_run", lambda d, s: check_first_run(d, os.path.abspath(args.bin)))]
        for name, check in checks:
            try:
                check(driver, stack)
                passed += 1
                print(f"ok   {name}")
            except Exception:
                failed += 1
                print(f"FAIL {name}\n{traceback.format_exc()}")
        print(f"screenshot: {args.screenshot}")
    finally:
        if driver:
            driver.quit()
        stack.stop(keep_logs=failed > 0)
    print(f"browser: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
