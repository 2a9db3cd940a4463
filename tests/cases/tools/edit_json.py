# A report edited by hand, for a case that reads one back: loads JSON from
# IN, runs each STATEMENT (Python) with the document as r, and writes the
# result to OUT, so that the edit stays visible in the case's RUN line, e.g.
#   edit_json.py r.json bad.json 'r["summary"]["leaked_bytes"] = -1'
# Usage: edit_json.py IN OUT STATEMENT...
import json
import sys

if len(sys.argv) < 4:
    sys.exit("usage: edit_json.py IN OUT STATEMENT...")
with open(sys.argv[1], encoding="utf-8") as f:
    names = {"r": json.load(f)}
for statement in sys.argv[3:]:
    exec(statement, names)  # a statement that fails is a broken case: its traceback and status 1
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(names["r"], f)
