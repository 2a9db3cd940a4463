# Runs one command, stamps each stdout and stderr line with its arrival time,
# and prints the delays a user waits: from the failing allocation's start
# ("ATTEMPT t" on stdout) to cudaleak's first out-of-memory line on stderr,
# and from the program's last statement ("EXIT t") to the end of cudaleak's
# exit report (the last stderr line, or the process's end).
# Usage: oom_delay_measure.py LABEL -- COMMAND...
import selectors
import subprocess
import sys
import time

label = sys.argv[1]
cmd = sys.argv[sys.argv.index("--") + 1:]
start = time.time()
proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sel = selectors.DefaultSelector()
sel.register(proc.stdout, selectors.EVENT_READ, "out")
sel.register(proc.stderr, selectors.EVENT_READ, "err")
lines = []
buffers = {"out": b"", "err": b""}
open_streams = 2
while open_streams:
    for key, _ in sel.select():
        chunk = key.fileobj.read1(65536)
        now = time.time()
        if not chunk:
            sel.unregister(key.fileobj)
            open_streams -= 1
            continue
        buffers[key.data] += chunk
        *complete, buffers[key.data] = buffers[key.data].split(b"\n")
        lines += [(now, key.data, l.decode(errors="replace")) for l in complete]
proc.wait()
end = time.time()
attempt = next((float(l.split()[1]) for _, s, l in lines if s == "out" and l.startswith("ATTEMPT ")), None)
exit_at = next((float(l.split()[1]) for _, s, l in lines if s == "out" and l.startswith("EXIT ")), None)
oom_line = next((t for t, s, l in lines if s == "err" and "out of memory" in l and "cudaleak" in l), None)
last_err = max((t for t, s, l in lines if s == "err"), default=None)


def ms(a, b):
    return "%7.0f ms" % ((b - a) * 1000) if a is not None and b is not None else "      n/a"


print("%-28s wall %s  failure->OOM text %s  exit->report end %s  exit->process end %s" % (
    label, ms(start, end), ms(attempt, oom_line), ms(exit_at, last_err if last_err and exit_at and last_err > exit_at else None),
    ms(exit_at, end)))
if "-v" in sys.argv[2:sys.argv.index("--")]:
    for t, s, l in lines:
        print("   %+9.3f %s %s" % (t - start, s, l[:200]))
sys.exit(0 if attempt is not None else 1)
