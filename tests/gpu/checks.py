# What the GPU validation scripts' Python checks share: a PASS or FAIL line
# per check, a count at the end, and a non-zero exit status on any failure.
import sys

failures = 0


def check(ok, what):
    global failures
    failures += not ok
    print(("PASS" if ok else "FAIL"), what)
    return ok


def finish(name):
    print(f"{name} checks: {failures} failed")
    sys.exit(1 if failures else 0)
