#!/usr/bin/env python3
"""The scenario runner's own test: a wrong expectation fails (1), a scenario
with no expectation or an unknown key is malformed (2), REQUIRES skips (77),
and the right expectations pass (0). Usage: check_runner.py PROGRAM CUDALEAK,
PROGRAM being the built released_everything scenario."""
import os
import subprocess
import sys
import tempfile

runner = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_scenario.py")
program, cudaleak = sys.argv[1:3]
cases = [
    ("right expectations", "// EXIT: 0\n// REPORT: summary['leaked_count'] == 0\n", 0),
    ("a wrong exit status", "// EXIT: 3\n", 1),
    ("a wrong report", "// REPORT: summary['leaked_count'] == 1\n", 1),
    ("text that is not there", "// STDERR: never printed\n", 1),
    ("text out of order", "// STDERR: SUMMARY: cudaleak\n// STDERR: no CUDA resources leaked\n", 1),
    ("no expectation", "// RUN: --error-exitcode 23\n", 2),
    ("an unknown key", "// EXIT: 0\n// EXPECT: 0\n", 2),
    ("a report expression that fails to evaluate", "// REPORT: r['no such field'] == 1\n", 2),
    ("a scenario for the other kind of GPU", "// REQUIRES: real\n// EXIT: 0\n", 77),
]
failed = 0
with tempfile.TemporaryDirectory() as work:
    for name, text, want in cases:
        path = os.path.join(work, "scenario.cu")
        with open(path, "w") as f:
            f.write(text)
        got = subprocess.run([sys.executable, runner, path, program, cudaleak], capture_output=True).returncode
        print(("PASS" if got == want else "FAIL") + f" {name}: status {got}, expected {want}")
        failed += got != want
sys.exit(1 if failed else 0)
