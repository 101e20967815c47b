#!/usr/bin/env python3
"""The owner's last step of the first hour, in the systemd VM: open the page plumscale-web serves
in a real browser (headless Chromium through chromedriver, as Tests/browser does) and read the
pan's weight there, as the page's script draws it from /ws; then log in with the page's password,
as the owner does to tare from the phone.

usage: page_weight.py URL PAN TEXT PASSWORD [--deadline SECONDS]

Prints one JSON line: {"shown": the pan's text when it matched or at the deadline, "seconds":
from the browser's start to TEXT on the page, "login": true once the page shows the pan's
actions, "error": what failed}. Exits 0 only when TEXT was shown and the login worked.
"""
import argparse, json, shutil, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def wait_until(what, predicate, deadline):
    """Polls predicate until it returns a truthy value or the deadline (monotonic) passes."""
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except Exception as error:  # a stale element while the page redraws: try again
            last = error
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def main():
    parser = argparse.ArgumentParser()
    for name in ("url", "pan", "text", "password"):
        parser.add_argument(name)
    # Chromium's first start under TCG takes tens of seconds by itself.
    parser.add_argument("--deadline", type=float, default=240)
    args = parser.parse_args()
    started = time.monotonic()
    deadline = started + args.deadline
    result = {"shown": None, "seconds": None, "login": False}
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=900,760"):
        options.add_argument(argument)
    driver = None
    try:
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                                  options=options)
        driver.get(args.url)

        def pan_text():
            for card in driver.find_elements(By.CSS_SELECTOR, "#pans .pan"):
                if card.find_element(By.CLASS_NAME, "name").text == args.pan:
                    result["shown"] = card.find_element(By.CLASS_NAME, "grams").text
                    return result["shown"] == args.text
            return False

        wait_until(f"{args.text!r} on the pan {args.pan!r}", pan_text, deadline)
        result["seconds"] = round(time.monotonic() - started, 1)
        wait_until("the login form", lambda: driver.find_element(By.ID, "login").is_displayed(), deadline)
        driver.find_element(By.ID, "password").send_keys(args.password)
        driver.find_element(By.ID, "login-button").click()
        result["login"] = bool(wait_until(
            "the pan's actions after login",
            lambda: any(c.find_element(By.CLASS_NAME, "actions").is_displayed()
                        for c in driver.find_elements(By.CSS_SELECTOR, "#pans .pan")), deadline))
    except Exception as error:
        result["error"] = str(error).splitlines()[0] if str(error) else type(error).__name__
    finally:
        if driver is not None:
            driver.quit()
    print(json.dumps(result))
    return 0 if result["seconds"] is not None and result["login"] else 1


if __name__ == "__main__":
    sys.exit(main())
