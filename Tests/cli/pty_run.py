#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal, as a person's terminal would, for the CLI tests.

usage: pty_run.py SECONDS COLUMNS -- COMMAND ARG...

Lets the command draw for SECONDS, sends it SIGINT (Ctrl-C), waits up to 5 s for it to exit,
and prints one JSON object: everything it wrote to the terminal and its exit status.
With PTY_KILL_PID set, SIGTERM goes to that process instead of SIGINT to the command (to stop
the daemon under a watching client).

Tests act on what the command shows, not on time: with PTY_WHEN set, the action happens as soon
as that text appears (SECONDS is then only the deadline): PTY_WRITE_FILE gets PTY_WRITE_TEXT,
or PTY_KILL_PID is sent SIGTERM. With PTY_UNTIL set, the command gets Ctrl-C as soon as that
text appears after the action (or, without PTY_WHEN, at all), not at SECONDS.
"""
import json, os, pty, select, signal, struct, sys, time, fcntl, termios

seconds, columns = float(sys.argv[1]), int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
output = bytearray()

def drain(until, stop=None, start=0):
    """Reads until the deadline, end of output, or `stop` appears after byte `start`."""
    while time.monotonic() < until:
        if stop is not None and stop in output[start:]:
            return True
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return False
            if not chunk:
                return False
            output.extend(chunk)
    return True

when = os.environ.get("PTY_WHEN", "").encode() or None
until = os.environ.get("PTY_UNTIL", "").encode() or None
kill_pid = os.environ.get("PTY_KILL_PID")
deadline = time.monotonic() + seconds
running = True
if when is not None:
    running = drain(deadline, when)
    mark = len(output)
    if when in output:
        if os.environ.get("PTY_WRITE_FILE"):
            with open(os.environ["PTY_WRITE_FILE"], "w") as target:
                target.write(os.environ.get("PTY_WRITE_TEXT", ""))
        if kill_pid:
            os.kill(int(kill_pid), signal.SIGTERM)
    if running:
        running = drain(deadline, until, mark)
else:
    running = drain(deadline, until)
    if kill_pid:
        os.kill(int(kill_pid), signal.SIGTERM)
if running and not kill_pid:
    os.kill(pid, signal.SIGINT)
drain(time.monotonic() + 5)
status = None
for _ in range(50):
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(raw)
        break
    time.sleep(0.1)
if status is None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
print(json.dumps({"output": output.decode("utf-8", "replace"), "status": status}, separators=(",", ":")))
