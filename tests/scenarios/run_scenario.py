#!/usr/bin/env python3
"""Runs one end-to-end scenario: a program and its expectations in one file
(tests/scenarios/*.cu), as LLVM's lit tests are. The program is built by CMake
from the same file; its comment lines starting with `// KEY:` say how to run
it and what must come out:

  // RUN: --error-exitcode 23        options of `cudaleak run` (-o is added)
  // ARGS: 4                         the program's arguments
  // REQUIRES: simulated | real      run only under the simulated GPU / a real one
  // EXIT: 23                        the exit status (or SIGNAL: SIGSEGV)
  // STDOUT: text                    in the program's output, in this order
  // STDERR: text                    in cudaleak's and the program's stderr, in order
  // STDERR-NOT: text                nowhere in stderr
  // REPORT: python expression       true of the report; names: r (the report),
                                     leaks(kind=None, function=None) (its groups
                                     of that kind with that function in the
                                     stack), summary (r["summary"])

Exits 0 when every expectation holds, 1 when one does not (each is printed,
PASS or FAIL), 2 when the scenario is malformed (no expectation at all, an
unknown key, a REPORT that does not evaluate), 77 when skipped (REQUIRES).

Usage: run_scenario.py SCENARIO PROGRAM CUDALEAK [--real]
"""
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

KEYS = {"RUN", "ARGS", "REQUIRES", "EXIT", "SIGNAL", "STDOUT", "STDERR", "STDERR-NOT", "REPORT"}
EXPECTATIONS = {"EXIT", "SIGNAL", "STDOUT", "STDERR", "STDERR-NOT", "REPORT"}
DIRECTIVE = re.compile(r"^\s*//\s*([A-Z][A-Z-]*):\s?(.*?)\s*$")


def malformed(path, line, why):
    print(f"{path}:{line}: {why}", file=sys.stderr)
    sys.exit(2)


def read_directives(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            m = DIRECTIVE.match(text)
            if not m:
                continue
            key, value = m.groups()
            if key not in KEYS:
                malformed(path, number, f"unknown key {key}: (known: {', '.join(sorted(KEYS))})")
            out.append((number, key, value))
    if not any(key in EXPECTATIONS for _, key, _ in out):
        malformed(path, 1, "no expectation (EXIT, SIGNAL, STDOUT, STDERR, STDERR-NOT or REPORT): "
                           "a scenario that checks nothing cannot fail")
    return out


def in_order(text, needles):
    """(needle, found) for each needle, each searched after the previous match."""
    at, results = 0, []
    for needle in needles:
        i = text.find(needle, at)
        results.append((needle, i >= 0))
        if i >= 0:
            at = i + len(needle)
    return results


def main():
    args = [a for a in sys.argv[1:] if a != "--real"]
    real = "--real" in sys.argv[1:]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    scenario, program, cudaleak = (os.path.abspath(a) for a in args)  # the run's directory is its own
    directives = read_directives(scenario)
    values = lambda key: [v for _, k, v in directives if k == key]
    required = values("REQUIRES")
    if required and required[0] not in ("simulated", "real"):
        malformed(scenario, 1, f"REQUIRES: {required[0]} (simulated or real)")
    if required and required[0] != ("real" if real else "simulated"):
        print(f"skipped: requires {required[0]}")
        return 77

    work = tempfile.mkdtemp(prefix="cudaleak-scenario-")
    command = [cudaleak, "run"] + ([] if real else ["--simulated-gpu"])
    for options in values("RUN"):
        command += options.split()
    command += ["-o", os.path.join(work, "r.%p.json"), "--", program]
    for a in values("ARGS"):
        command += a.split()
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=work)
    print("$ " + " ".join(command))

    failures = 0

    def check(name, ok, detail=""):
        nonlocal failures
        print(("PASS " if ok else "FAIL ") + name + ("" if ok or not detail else f": {detail}"))
        failures += not ok

    for line, key, value in directives:
        if key == "EXIT":
            check(f"line {line}: exit status {value}", run.returncode == int(value), f"got {run.returncode}")
        elif key == "SIGNAL":
            want = -int(getattr(signal, value))
            check(f"line {line}: killed by {value}", run.returncode == want, f"got {run.returncode}")
        elif key == "STDERR-NOT":
            check(f"line {line}: no '{value}' in stderr", value not in run.stderr)
    for key, text in (("STDOUT", run.stdout), ("STDERR", run.stderr)):
        lines = [(line, v) for line, k, v in directives if k == key]
        for (line, _), (needle, found) in zip(lines, in_order(text, [v for _, v in lines])):
            check(f"line {line}: '{needle}' in {key.lower()}", found, "not found (in order) in:\n" + text[-2000:])

    reports = sorted(glob.glob(os.path.join(work, "r.*.json")))
    expressions = [(line, v) for line, k, v in directives if k == "REPORT"]
    if expressions:
        if len(reports) != 1:
            check("one report written", False, f"{len(reports)} reports in {work}")
        else:
            with open(reports[0], encoding="utf-8") as f:
                r = json.load(f)

            def leaks(kind=None, function=None):
                return [g for g in r.get("leaks", [])
                        if (kind is None or g.get("kind") == kind) and
                        (function is None or any(fr.get("function", "").startswith(function) for fr in g.get("stack", [])))]

            names = {"r": r, "leaks": leaks, "summary": r.get("summary", {}), "len": len, "sum": sum, "any": any, "all": all}
            for line, expression in expressions:
                try:
                    ok = bool(eval(expression, {"__builtins__": {}}, names))
                except Exception as e:  # a scenario that cannot be evaluated is malformed, not failed
                    malformed(scenario, line, f"REPORT: {expression}: {type(e).__name__}: {e}")
                check(f"line {line}: {expression}", ok, "false of " + reports[0])
    if failures:
        print(f"stderr was:\n{run.stderr[-3000:]}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
