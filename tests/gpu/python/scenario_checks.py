"""What the checker of the GPU scenarios' stories uses (check_oom_story.py;
the scenarios' other checks are cases, tests/cases/python): counted checks,
the line of a "# LINE:name" marker in a scenario, and the reports and log
each run left in the output folder."""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))


def line(scenario, marker):
    with open(os.path.join(here, scenario + ".py")) as f:
        for n, text in enumerate(f, 1):
            if "# LINE:" + marker in text:
                return n
    raise SystemExit("no marker %s in %s" % (marker, scenario))


class Checker:
    def __init__(self, out):
        self.out = out
        self.passed = 0
        self.failures = []

    def check(self, ok, what):
        if ok:
            self.passed += 1
            print("ok   ", what)
        else:
            self.failures.append(what)
            print("FAIL ", what)

    def reports(self, run):
        rs = []
        for p in sorted(glob.glob(os.path.join(self.out, run + ".*.json"))):
            with open(p) as f:
                rs.append(json.load(f))
        return rs

    def log(self, run):
        try:
            with open(os.path.join(self.out, run + ".log")) as f:
                return f.read()
        except OSError:
            return ""

    def finish(self):
        print("%d checks passed, %d failed" % (self.passed, len(self.failures)))
        sys.exit(1 if self.failures else 0)
