#!/usr/bin/env python3
"""Types answers to a command's prompts in a pseudo-terminal, as a person would.

usage: pty_type.py SECONDS PROMPT ANSWER [PROMPT ANSWER...] -- COMMAND ARG...

Each ANSWER is typed (with Enter) only once its PROMPT has appeared, after what the last answer
made the command write; SECONDS is the deadline for the whole run. Prints one JSON object:
everything the terminal showed, echo included, and the command's exit status. What the
command printed on standard output and error both show, as on a real terminal.
"""
import json, os, pty, select, signal, sys, time

seconds = float(sys.argv[1])
separator = sys.argv.index("--")
pairs = sys.argv[2:separator]
command = sys.argv[separator + 1:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
output = bytearray()
deadline = time.monotonic() + seconds


def drain(stop=None, start=0):
    """Reads until the deadline, the end of output, or `stop` appears after byte `start`."""
    while time.monotonic() < deadline:
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
    return False


mark = 0
for prompt, answer in zip(pairs[0::2], pairs[1::2]):
    if not drain(prompt.encode(), mark):
        break
    mark = len(output)
    os.write(fd, answer.encode() + b"\r")
drain()
status = None
while status is None and time.monotonic() < deadline + 5:
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(raw)
    else:
        time.sleep(0.05)
if status is None:
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
print(json.dumps({"output": output.decode("utf-8", "replace"), "status": status}, separators=(",", ":")))
