#!/usr/bin/env python3
"""Every report a GPU run wrote, read back through the validating reader
(the case tests/cases/reading/read_back_real.sh: its own reports and those
the cases before it in the run left).

Usage: check_reading.py CUDALEAK OUT_DIR REPORT_DIR...
For each cudaleak report or crash capture under the report directories:
`cudaleak report` accepts it (status 0); written again as JSON it keeps its
groups and summary; a second pass is stable byte for byte. Then all are
merged and the merge read back. Exits 1 on any wrong result.
"""
import json, os, subprocess, sys

tool, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
failures, checked = [], 0


def report(*args):
    return subprocess.run([tool, "report", "--suppressed", *args], capture_output=True, text=True)


files = []
for top in sys.argv[3:]:
    for root, _, names in os.walk(top):
        for n in sorted(names):
            path = os.path.join(root, n)
            if not n.endswith(".json") or path.startswith(out):
                continue
            data = open(path, "rb").read()
            if b'"cudaleak-report"' in data or data.startswith(b'{"format":"cudaleak-raw-capture"'):
                files.append(path)

for i, path in enumerate(files):
    checked += 1
    text = report(path)
    if text.returncode != 0:
        failures.append(f"{path}: report status {text.returncode}: {text.stderr.strip()[:300]}")
        continue
    a, b, c = (os.path.join(out, f"{i}.{x}.json") for x in "abc")
    for src, dst in ((path, a), (a, b), (b, c)):
        r = report("--format", "json", "-o", dst, src)
        if r.returncode != 0:
            failures.append(f"{src}: json status {r.returncode}: {r.stderr.strip()[:300]}")
            break
    else:
        original = json.load(open(path))
        again = json.load(open(a))
        if original.get("format") == "cudaleak-report":
            if len(again["leaks"]) != len(original["leaks"]):
                failures.append(f"{path}: {len(original['leaks'])} groups read as {len(again['leaks'])}")
            for key in ("leaked_bytes", "leaked_count", "suppressed_bytes", "cached_bytes"):
                if again["summary"].get(key, 0) != original["summary"].get(key, 0):
                    failures.append(f"{path}: summary.{key} {original['summary'].get(key)} read as {again['summary'].get(key)}")
        if open(b).read() != open(c).read():
            failures.append(f"{path}: written twice, the JSON differs")

merged = os.path.join(out, "merged.json")
if files:
    r = subprocess.run([tool, "merge", *files, "-o", merged], capture_output=True, text=True)
    if r.returncode != 0 or report(merged).returncode != 0:
        failures.append(f"merge of {len(files)} reports: status {r.returncode}: {r.stderr.strip()[:300]}")

print(f"reading: {checked} reports from the GPU runs read back, {len(failures)} wrong")
for f in failures:
    print("  FAIL", f)
sys.exit(1 if failures or checked == 0 else 0)
