"""The JUnit and SARIF files of a job of 64 ranks on 8 hosts, as CI systems
read them: scripts/make-job.py clones real GPU rank reports (odd ranks ran
out of memory, even ones were ended; every rank's leak group counted by the
gate; rank 4 has a leak no other rank has; host node001's GPUs held another
process), then `cudaleak report JOB --format junit` and `--format sarif`.
Checks: JUnit keeps a suite per rank with consistent counts, and the stack of
a leak ranks share is written once (the other ranks' failures name the rank
that has it); SARIF is valid against the 2.1.0 schema and has one result
per leak and out-of-memory story, the ranks in `properties.ranks`; both stay
small.

    python3 check_job_ci_formats.py CUDALEAK SOURCE_DIR OUT_DIR
"""
import json
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import jsonschema

cudaleak, source, out = (pathlib.Path(a).absolute() for a in sys.argv[1:4])
schema = json.loads((pathlib.Path(__file__).parent / "sarif-schema-2.1.0.json").read_text())
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)
job = out / "job"
subprocess.run(["/usr/bin/python3", str(source / "scripts" / "make-job.py"), str(job), "--ranks", "64", "--hosts", "8",
                "--counted-leaks", "--grow", "4", "--busy-host", "1"], check=True)
junit_path, sarif_path = out / "job.xml", out / "job.sarif"
for fmt, path in (("junit", junit_path), ("sarif", sarif_path)):
    done = subprocess.run([str(cudaleak), "report", str(job), "--format", fmt, "-o", str(path)],
                          capture_output=True, text=True)
    check(done.returncode == 0 and path.exists(), f"report --format {fmt} wrote {path.name} {done.stderr}")
if failures:
    sys.exit(1)

# JUnit: a suite per rank (CI systems count them), the shared stack once.
root = ET.parse(junit_path).getroot()
suites = root.findall("testsuite")
cases = list(root.iter("testcase"))
failed = [c.find("failure") for c in cases if c.find("failure") is not None]
check(len(suites) == 64, f"JUnit: one suite per rank ({len(suites)})")
check([s.get("name") for s in suites[:2]] == ["cudaleak: python3.12 (rank 0)", "cudaleak: python3.12 (rank 1)"],
      f"JUnit: the suites in rank order, named by program and rank ({[s.get('name') for s in suites[:2]]})")
check(int(root.get("tests")) == len(cases) and int(root.get("failures")) == len(failed) == 65,
      f"JUnit: counts match the cases, one failure per rank and rank 4's own ({root.get('failures')}, {len(failed)})")
# Odd ranks clone one report, even ranks another: two leaks, each shared by 32 ranks.
for ranks, first in (("1-63 odd", 1), ("0-62 even", 0)):
    shared = [f for f in failed if f"(the same leak on 32 ranks ({ranks}))" in f.get("message", "")]
    check(len(shared) == 32, f"JUnit: each failure of ranks {ranks} says the 32 ranks that share it ({len(shared)})")
    whole = [f for f in shared if (f.text or "").startswith("#0 ")]
    check(len(whole) == 1, f"JUnit: the stack ranks {ranks} share written once ({len(whole)})")
    refer = f"The same stack as in cudaleak: python3.12 (rank {first}), whose case of this name has it.\n"
    check(all((f.text or "") == refer for f in shared if f not in whole),
          f"JUnit: the other failures of ranks {ranks} name the suite that has the stack")
own = [f for f in failed if "the same leak" not in f.get("message", "")]
check(len(own) == 1 and "keep_activations" in (own[0].text or ""), "JUnit: rank 4's own leak has its own stack")

# SARIF: valid, one result per leak and per out-of-memory story, the ranks as ranges.
sarif = json.loads(sarif_path.read_text())
errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in jsonschema.Draft4Validator(schema).iter_errors(sarif)]
check(not errors, f"SARIF: valid against the 2.1.0 schema {errors[:3]}")
results = sarif["runs"][0]["results"]
by_rule = {}
for r in results:
    by_rule.setdefault(r["ruleId"], []).append(r)
leaks, ooms = by_rule.get("cudaleak/device-leak", []), by_rule.get("cudaleak/out-of-memory", [])
check(len(results) == 5 and len(leaks) == 3 and len(ooms) == 2,
      f"SARIF: 3 leaks (odd ranks', even ranks', rank 4's own) and 2 out-of-memory stories, not one per rank ({len(results)})")
for ranks in ("1-63 odd", "0-62 even"):
    shared = [r for r in leaks if r["properties"].get("ranks") == ranks]
    check(len(shared) == 1 and shared[0]["properties"].get("rankCount") == 32
          and f"the first of 32 ranks with it: {ranks}" in shared[0]["message"]["text"],
          f"SARIF: the leak of ranks {ranks} one result, its ranks a range in properties.ranks and the message")
check(any("ranks" not in r["properties"] and r["properties"].get("rank") == 4 for r in leaks),
      "SARIF: rank 4's own leak is a result of its own, with no ranks list")
stories = sorted(r["properties"].get("ranks", "") for r in ooms)
check(stories == ["1-63 odd but 9,11,13,15", "9,11,13,15"],
      f"SARIF: the out-of-memory stories by line and causes, each with its ranks ({stories})")
check(all("locations" in r for r in results), "SARIF: every result located")

# Small: what 64 ranks share is not written 64 times.
sizes = {p.name: p.stat().st_size for p in (junit_path, sarif_path)}
# About 1 KB a rank for JUnit's suites and cases; SARIF's size does not grow with the ranks.
check(sizes["job.xml"] < 96 << 10 and sizes["job.sarif"] < 64 << 10, f"both files small ({sizes})")

print(f"{len(failures)} of the checks failed" if failures else "a job's JUnit and SARIF fold what ranks share")
sys.exit(1 if failures else 0)
