#!/usr/bin/env python3
"""Every e2e test writes its reports into a folder of its own name
(fresh_dir, run_with_report): CTest runs the test cases side by side, and two
cases that name the same folder clear and read each other's reports (a flaky
failure that depends on scheduling). Prints each name used twice and exits 1."""
import collections
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent)
named = re.compile(r'(?:fresh_dir|run_with_report|run_program)\("([^"]+)"')
uses = collections.defaultdict(list)
for path in sorted(root.glob("*.cpp")):
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        for name in named.findall(line):
            uses[name].append("%s:%d" % (path.name, number))
twice = {name: where for name, where in uses.items() if len(where) > 1}
for name, where in sorted(twice.items()):
    print("report folder '%s' named by %s" % (name, ", ".join(where)))
print("%d report folders, %d named twice" % (len(uses), len(twice)))
sys.exit(1 if twice or not uses else 0)
