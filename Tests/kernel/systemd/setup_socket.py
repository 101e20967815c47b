#!/usr/bin/env python3
"""The web page's first run, as the page asks it: logs in to plumscale-web at URL with PASSWORD,
then sends setup's `state` request and a `probe` that leaves the HX711's lines alone through
POST /api/setup, which plumscale-web relays to plumscale-setup.socket, where systemd starts
`plumscale setup --serve` as root per connection.

usage: setup_socket.py URL PASSWORD [--deadline SECONDS]

The scale is set up already (setup wrote the file), so the service refuses the first probe and
says how root gives the page its leave; this script, run as root, does so with
`plumscale setup --allow-web`, and the second probe passes.

Prints one JSON line: {"state": the state reply, "refused": the first probe's error, "probe":
the second probe's summary, "error": what failed}. Exits 0 when the state says set up, the first
probe was refused naming --allow-web, and the second found the ADS1115 at 0x48 (i2c-stub's).
"""
import argparse, http.cookiejar, json, shutil, subprocess, sys, time, urllib.error, urllib.request


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("password")
    parser.add_argument("--deadline", type=float, default=300)
    args = parser.parse_args()
    base = args.url.rstrip("/")
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    headers = {"Origin": base, "Content-Type": "application/json"}
    result = {}

    def post(path, body, extra=None):
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                         headers={**headers, **(extra or {})})
        try:
            with opener.open(request, timeout=args.deadline) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    # The bcrypt check of the login takes seconds under emulation; the web service may still be starting.
    end = time.monotonic() + args.deadline
    while True:
        try:
            status, login = post("/api/login", {"password": args.password})
            break
        except OSError as error:
            if time.monotonic() > end:
                result["error"] = f"no web service at {base}: {error}"
                print(json.dumps(result))
                return 1
            time.sleep(1)
    if status != 200 or not isinstance(login, dict) or "csrf" not in login:
        result["error"] = f"login: HTTP {status}: {login}"
        print(json.dumps(result))
        return 1
    token = {"X-CSRF-Token": login["csrf"]}
    status, state = post("/api/setup", {"request": "state"}, token)
    result["state"] = state
    _, refused = post("/api/setup", {"request": "probe", "hx711": False}, token)
    result["refused"] = refused.get("error") if isinstance(refused, dict) else refused
    was_refused = (isinstance(refused, dict) and refused.get("ok") is False
                   and "set up already" in str(refused.get("error")) and "--allow-web" in str(refused.get("error")))
    allow = subprocess.run([shutil.which("plumscale") or "plumscale", "setup", "--allow-web"],
                           capture_output=True, text=True)
    result["allow"] = (allow.stdout + allow.stderr).strip()[:200]
    status_probe, probe = post("/api/setup", {"request": "probe", "hx711": False}, token)
    result["probe"] = probe.get("summary") if isinstance(probe, dict) else probe
    ok = (status == 200 and isinstance(state, dict) and state.get("ok") is True and state.get("set_up") is True
          and was_refused and allow.returncode == 0
          and status_probe == 200 and isinstance(probe, dict) and probe.get("ok") is True
          and "ADS1115" in probe.get("summary", "") and "0x48" in probe.get("summary", ""))
    if not ok:
        result["error"] = (f"state HTTP {status}, first probe refused: {was_refused}, --allow-web rc "
                           f"{allow.returncode}, probe HTTP {status_probe}")
    print(json.dumps(result))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
