#!/usr/bin/env python3
"""plumscale-web in a real browser: headless Chromium, driven by chromedriver through selenium,
against the real plumscaled --simulate (two pans with plums coming and going).

usage: test_web.py [--bin DIR] [--screenshot FILE]

Checks, each waiting for its signal with a deadline (never a fixed sleep):
  1. the page shows two pans whose grams change live;
  2. the heaviest pan is marked: its card has the heaviest class and says "heaviest";
  3. the screenshot's pixels inside the heaviest card are the page's yellow;
  4. after logging in, Tare on a stable pan makes it read 0.0 g;
  5. /metrics and /api/poll answer for scripts.
Prints 'browser: N passed, N failed' and exits non-zero on any failure.
"""
import argparse, json, os, shutil, socket, subprocess, sys, tempfile, time, traceback, urllib.request

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

    def __init__(self, bin_dir, sensors=None):
        """`sensors`: the daemon's [[sensor]] tables, in place of --simulate's two pans."""
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
                    f'history = "{self.dir}/history.sqlite"\nretention_days = 1\n')
        self.web = self.start([os.path.join(bin_dir, "plumscale-web"), "--config", os.path.join(self.dir, "plumscale.toml"),
                               "--socket", self.socket], "web.log")
        self.url = f"http://127.0.0.1:{self.port}"
        wait_until("plumscale-web to answer", lambda: self.get("/api/poll"))

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


def browser():
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=900,760", "--force-device-scale-factor=1"):
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


def check_screenshot(driver, stack, path):
    def capture():
        # The heaviest card and the screenshot must be of the same moment: take both, then
        # check the card is still the one marked and has not moved or changed size (a reflow
        # between the measure and the picture once put a point outside the card).
        card = heaviest_card(driver)
        if card is None:
            return None
        rect = card.rect
        png = driver.get_screenshot_as_png()
        return (rect, png) if heaviest_card(driver) == card and card.rect == rect else None
    rect, png = wait_until("a steady heaviest card to photograph", capture, seconds=60)
    with open(path, "wb") as f:
        f.write(png)
    width, height, rows = read_png(png)
    # Inside the card's padding, clear of text: the top-left and right edges of the card.
    points = [(int(rect["x"] + 8), int(rect["y"] + 8)), (int(rect["x"] + rect["width"] - 10), int(rect["y"] + 10)),
              (int(rect["x"] + 8), int(rect["y"] + rect["height"] - 10))]
    for x, y in points:
        pixel = rows[y][x]
        assert all(abs(a - b) <= 6 for a, b in zip(pixel, YELLOW)), f"pixel at {x},{y} is {pixel}, not yellow"
    other = [c for c in cards(driver) if c != heaviest_card(driver)]
    if other:
        r = other[0].rect
        pixel = rows[int(r["y"] + 8)][int(r["x"] + 8)]
        assert pixel != YELLOW, "the other card must not be yellow"


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.environ.get("PLUMSCALE_BIN_DIR", ".build/debug"))
    parser.add_argument("--screenshot", default=os.path.join(tempfile.gettempdir(), "plumscale-web.png"))
    args = parser.parse_args()
    stack = Stack(os.path.abspath(args.bin))
    driver = None
    passed, failed = 0, 0
    try:
        driver = browser()
        checks = [("check_live_pans", check_live_pans), ("check_heaviest", check_heaviest),
                  ("check_screenshot", lambda d, s: check_screenshot(d, s, args.screenshot)),
                  ("check_tare", check_tare), ("check_named_tare", check_named_tare), ("check_api", check_api),
                  ("check_pulled_wire", lambda d, s: check_pulled_wire(d, os.path.abspath(args.bin)))]
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
