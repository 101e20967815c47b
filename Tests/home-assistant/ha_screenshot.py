#!/usr/bin/env python3
"""A screenshot of the scale's device page in Home Assistant's own frontend, through headless Chromium.

Run by check_ha.py (with a Python that has selenium, as Tests/browser/test_web.py uses) while Home Assistant and the
bridge are up. The browser signs in as the owner check_ha.py onboarded: the frontend keeps its session as
`hassTokens` in local storage, and this script puts the owner's tokens there (the same record the login page
stores), then opens /config/devices/device/<id> and waits until the page shows the device and its entities with
their states. It fails when the picture is blank: too few colours, or almost all of it one colour.
"""

import argparse
import json
import os
import shutil
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "browser"))
from png_pixels import read_png  # noqa: E402

WIDTH, HEIGHT = 1280, 2450  # tall enough for the Diagnostic card's 17 entities
# Every text of the page, shadow roots included: Home Assistant's frontend is web components all the way down.
PAGE_TEXT = """
const out = [];
const walk = (node) => {
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) out.push(child.textContent.trim());
        else if (!["STYLE", "SCRIPT"].includes(child.nodeName)) walk(child);
    }
};
walk(document);
return out.filter((text) => text).join("\\n");
"""


class Timeout(Exception):
    pass


def wait_until(what, condition, seconds):
    """Polls `condition` until it returns a true value, which it returns; a deadline, never a fixed sleep."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        last = condition()
        if last:
            return last
        time.sleep(0.5)
    raise Timeout(f"no {what} within {seconds:.0f} s")


def browser():
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={WIDTH},{HEIGHT}", "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def not_blank(png):
    """The picture has content: at least 16 colours, and no colour covers more than 97 % of it."""
    width, height, rows = read_png(png)
    counts = {}
    for row in rows[::4]:
        for pixel in row[::4]:
            counts[pixel] = counts.get(pixel, 0) + 1
    total = sum(counts.values())
    top = max(counts.values())
    if len(counts) < 16 or top > 0.97 * total:
        raise SystemExit(f"ha_screenshot.py: the {width}x{height} picture is blank: {len(counts)} colours, the "
                         f"commonest covering {100 * top / total:.0f} %")
    return width, height, len(counts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="Home Assistant, such as http://127.0.0.1:8123")
    parser.add_argument("--tokens", required=True, help="JSON: the /auth/token answer with hassUrl and clientId")
    parser.add_argument("--device", required=True, help="the device registry id")
    parser.add_argument("--name", required=True, help="the device's name, which the page must show")
    parser.add_argument("--out", required=True, help="where the PNG goes")
    parser.add_argument("--seconds", type=float, default=90, help="how long the page may take")
    args = parser.parse_args()
    with open(args.tokens) as f:
        tokens = json.load(f)
    driver = browser()
    try:
        # Any page of Home Assistant's origin, so that its local storage can take the session.
        driver.get(args.url + "/manifest.json")
        driver.execute_script(
            "const t = arguments[0]; t.expires = Date.now() + t.expires_in * 1000;"
            "localStorage.setItem('hassTokens', JSON.stringify(t));", tokens)
        driver.get(f"{args.url}/config/devices/device/{args.device}")

        # "press" is the buttons' text, which the page shows in capitals
        wanted = (args.name, "left weight", "right weight", "heaviest pan", "left last fault", " g", "press")
        missing = list(wanted)

        def shown():
            # The device's name, an entity of each card, and a weight with its unit: its states are in.
            nonlocal missing
            text = driver.execute_script(PAGE_TEXT)
            missing = [word for word in wanted if word.lower() not in text.lower()]
            return not missing
        try:
            wait_until(f"device page of {args.name} with its entities", shown, args.seconds)
        except Timeout as error:
            # What the browser had instead, for whoever reads the failure.
            driver.save_screenshot(args.out + ".failed.png")
            raise SystemExit(f"ha_screenshot.py: {error}; at {driver.current_url} the page lacks {missing} "
                             f"(picture: {args.out}.failed.png)") from None
        previous = None

        def steady():
            # The page's words the same twice in a row (numbers aside: flow and force move) with the fonts in:
            # the cards have stopped coming in.
            nonlocal previous
            words = "".join(c for c in driver.execute_script(PAGE_TEXT) if not c.isdigit())
            same = words == previous and driver.execute_script("return document.fonts.status") == "loaded"
            previous = words
            return same
        wait_until("a steady page", steady, args.seconds)
        png = driver.get_screenshot_as_png()
    finally:
        driver.quit()
    width, height, colours = not_blank(png)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "wb") as f:
        f.write(png)
    print(f"device page: {args.out}, {width}x{height}, {colours} colours")


if __name__ == "__main__":
    main()
