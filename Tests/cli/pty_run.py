#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal, as a person's terminal would, for the CLI tests.

usage: pty_run.py SECONDS COLUMNS -- COMMAND ARG...

Lets the command draw for SECONDS, sends it SIGINT (Ctrl-C), waits up to 5 s for it to exit,
and prints one JSON object: everything it wrote to the terminal and its exit status.
With PTY_KILL_PID set, SIGTERM goes to that process instead of SIGINT to the command (to stop
the daemon under a watching client).
"""
import json, os, pty, select, signal, struct, sys, time, fcntl, termios

seconds, columns = float(sys.argv[1]), int(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
output = bytearray()

def drain(until):
    while time.monotonic() < until:
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

drain(time.monotonic() + seconds)
if os.environ.get("PTY_KILL_PID"):
    os.kill(int(os.environ["PTY_KILL_PID"]), signal.SIGTERM)
else:
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
