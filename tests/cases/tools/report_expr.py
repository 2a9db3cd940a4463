# Python expressions that must be true of a report, for what a user reads
# does not show: prints "holds: EXPR" for each true one and "FALSE: EXPR" for
# each false one (exit status 1), and refuses one that cannot be evaluated
# (exit status 2). Names: r (the report), summary (r["summary"]),
# leaks(kind=None, function=None): the leak groups of that kind with a frame
# of that function (a prefix) in their stack.
# Usage: report_expr.py REPORT.json EXPR...
import json
import sys

if len(sys.argv) < 3:
    sys.exit("usage: report_expr.py REPORT.json EXPR...")
with open(sys.argv[1], encoding="utf-8") as f:
    r = json.load(f)


def leaks(kind=None, function=None):
    return [g for g in r.get("leaks", [])
            if (kind is None or g.get("kind") == kind) and
            (function is None or any(fr.get("function", "").startswith(function) for fr in g.get("stack", [])))]


names = {"r": r, "leaks": leaks, "summary": r.get("summary", {}), "len": len, "sum": sum, "any": any, "all": all}
failed = 0
for expression in sys.argv[2:]:
    try:
        ok = bool(eval(expression, {"__builtins__": {}}, names))
    except Exception as e:  # an expression that cannot be evaluated is a broken case, not a finding
        sys.exit("report_expr.py: cannot evaluate %s: %s: %s" % (expression, type(e).__name__, e))
    print(("holds: " if ok else "FALSE: ") + expression)
    failed += not ok
sys.exit(1 if failed else 0)
