# Python expressions that must be true of a report, for what a user reads
# does not show: prints "holds: EXPR" for each true one and "FALSE: EXPR" for
# each false one (exit status 1), and refuses one that cannot be evaluated
# (exit status 2).
# REPORT is a report's JSON or a folder of them (every *.json in it); any
# other JSON (SARIF, GitLab's code quality) is read as r alike. Names:
# reports (every report read, in the order of their file names), files
# (their file names, without the folder), r (the
# report, when there is exactly one; else None), summary (r["summary"]),
# leaks(kind=None, function=None, api=None, report=r): the leak groups of that
# kind with a frame of that function (a prefix) in their stack and made by
# that API, group(kind, api=None, function=None, report=r): the first of them
# or None, count(kind, report=r) and size(kind, report=r): what the summary
# says of a kind (0 when absent), stack_has(group, text): a frame's function
# holds text, text(path): a file's contents ("" when absent), line_of(path,
# text): the number of the first line of a file that holds text (0: none),
# python_frame(stack, function, line): a Python frame of that function at
# that line is in the stack, oom_events(reason="exit"): the out-of-memory
# events of every report of that reason (each process's exit report),
# last_report(reason="exit"): the last report of that reason in file-name
# order ({} when none), by_rank(): each rank's latest report (the longest
# run of its process; ranks from 0 only), re (Python's regular expressions,
# for numbers a program printed).
# Usage: report_expr.py REPORT EXPR...
import json
import os
import re
import sys

if len(sys.argv) < 3:
    sys.exit("usage: report_expr.py REPORT EXPR...")
where = sys.argv[1]
paths = sorted(os.path.join(where, f) for f in os.listdir(where) if f.endswith(".json")) \
    if os.path.isdir(where) else [where]
reports = []
for path in paths:
    with open(path, encoding="utf-8") as f:
        reports.append(json.load(f))
r = reports[0] if len(reports) == 1 else None


def leaks(kind=None, function=None, api=None, report=None):
    report = report or r
    return [g for g in report.get("leaks", [])
            if (kind is None or g.get("kind") == kind) and (api is None or g.get("api") == api) and
            (function is None or any(fr.get("function", "").startswith(function) for fr in g.get("stack", [])))]


def group(kind, api=None, function=None, report=None):
    found = leaks(kind, function, api, report)
    return found[0] if found else None


def by_kind(kind, report):
    return (report or r).get("summary", {}).get("by_kind", {}).get(kind, {})


def count(kind, report=None):
    return by_kind(kind, report).get("count", 0)


def size(kind, report=None):
    return by_kind(kind, report).get("bytes", 0)


def stack_has(g, text):
    return any(text in fr.get("function", "") for fr in g.get("stack", []))


def python_frame(stack, function, line):
    return any(f.get("language") == "python" and f.get("function") == function and f.get("line") == line
               for f in stack)


def oom_events(reason="exit"):
    return [e for report in reports if report.get("reason") == reason for e in report.get("oom_events", [])]


def last_report(reason="exit"):
    found = [report for report in reports if report.get("reason") == reason]
    return found[-1] if found else {}


def by_rank():
    latest = {}
    for report in sorted(reports, key=lambda x: x.get("duration_ns", 0)):  # stable: the later file of a tie
        if report.get("process", {}).get("rank", -1) >= 0:
            latest[report["process"]["rank"]] = report
    return latest


def text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def line_of(path, wanted):
    return next((n for n, line in enumerate(text(path).splitlines(), 1) if wanted in line), 0)


# Globals, not locals, so that a comprehension in an expression sees them.
names = {"__builtins__": {}, "r": r, "reports": reports, "files": [os.path.basename(p) for p in paths], "summary": r.get("summary", {}) if isinstance(r, dict) else {}, "leaks": leaks,
         "group": group, "count": count, "size": size, "stack_has": stack_has, "text": text, "line_of": line_of,
         "python_frame": python_frame, "oom_events": oom_events, "last_report": last_report, "by_rank": by_rank,
         "len": len, "sum": sum, "any": any, "all": all, "sorted": sorted, "set": set, "min": min, "max": max, "str": str, "int": int,
         "zip": zip, "dict": dict, "range": range, "list": list, "tuple": tuple, "abs": abs, "float": float, "re": re,
         "ord": ord}
failed = 0
for expression in sys.argv[2:]:
    try:
        ok = bool(eval(expression, dict(names)))
    except Exception as e:  # an expression that cannot be evaluated is a broken case, not a finding
        sys.exit("report_expr.py: cannot evaluate %s: %s: %s" % (expression, type(e).__name__, e))
    print(("holds: " if ok else "FALSE: ") + expression)
    failed += not ok
sys.exit(1 if failed else 0)
