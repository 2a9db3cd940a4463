#!/usr/bin/env python3
"""JUnit XML and SARIF from `cudaleak run --junit/--sarif`, read back with real
parsers (xml.etree, json) and checked against the run: a shell starts three
programs, one leaking, one leaking but suppressed, one clean."""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

build = sys.argv[1]
source_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    supp = os.path.join(tmp, "app.supp")
    with open(supp, "w") as f:
        f.write("leak:process_batch\n")
    samples = os.path.join(build, "samples")
    script = (f"{samples}/sample_loop_leak_shared; {samples}/sample_exception_leak_shared; "
              f"{samples}/sample_clean_shared; exit 0")
    junit, sarif = os.path.join(tmp, "leaks.xml"), os.path.join(tmp, "leaks.sarif")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CUDALEAK_")}
    run = subprocess.run([os.path.join(build, "bin", "cudaleak"), "run", "--simulated-gpu", "--error-exitcode", "7",
                          "--suppressions", supp, "-o", os.path.join(tmp, "r.%p.json"), "--junit", junit,
                          "--sarif", sarif, "--source-root", source_root, "--", "/bin/sh", "-c", script],
                         env=env, capture_output=True, text=True)
    check(run.returncode == 7, f"launcher status {run.returncode}, expected 7 (one process leaked)")

    root = ET.parse(junit).getroot()
    check(root.tag == "testsuites", "JUnit root is <testsuites>")
    suites = root.findall("testsuite")
    check(len(suites) == 3, f"one test suite per CUDA process: got {len(suites)}")
    check(root.get("failures") == "1", f"one failing leak group: {root.get('failures')}")
    check(root.get("skipped") == "1", f"one suppressed leak group: {root.get('skipped')}")
    failed = [c for s in suites for c in s.findall("testcase") if c.find("failure") is not None]
    # Names CI history can follow: no pid, no byte count; the count is in the message.
    check(len(failed) == 1 and failed[0].get("name", "").startswith("device leak at device | step @ loop_leak.cu:8"),
          f"the failing case is named by kind and site: {[c.get('name') for c in failed]}")
    check(failed and "device leak: 50 resources" in failed[0].find("failure").get("message", ""),
          "the failure message counts the loop's 50 device buffers")
    names = [s.get("name") for s in suites]
    check("cudaleak: sample_loop_leak_shared" in names and not any("pid" in n for n in names),
          f"suites named by program, no pid: {names}")
    check(failed and "step" in (failed[0].find("failure").text or ""), "the failure carries the stack")
    skipped = [c for s in suites for c in s.findall("testcase") if c.find("skipped") is not None]
    check(skipped and "suppressed by leak:process_batch" in skipped[0].find("skipped").get("message", ""),
          "the suppressed case says which rule hid it")
    clean = [c for s in suites for c in s.findall("testcase") if c.get("name") == "no CUDA resources leaked"]
    check(len(clean) == 1, "the clean process has one passing case")

    with open(sarif) as f:
        doc = json.load(f)
    check(doc.get("version") == "2.1.0", "SARIF version 2.1.0")
    runs = doc.get("runs", [])
    check(len(runs) == 1 and runs[0]["tool"]["driver"]["name"] == "cudaleak", "one run by cudaleak")
    results = runs[0].get("results", []) if runs else []
    check(len(results) == 1, f"one result (the suppressed leak is not one): got {len(results)}")
    if results:
        r = results[0]
        check(r["ruleId"] == "cudaleak/device-leak", "rule id")
        check(r["ruleId"] in [rule["id"] for rule in runs[0]["tool"]["driver"]["rules"]], "rule declared")
        loc = r["locations"][0]["physicalLocation"]
        check(loc["artifactLocation"] == {"uri": "samples/loop_leak.cu", "uriBaseId": "SRCROOT"},
              f"location relative to the source root: {loc}")
        check(runs[0].get("originalUriBaseIds", {}).get("SRCROOT", {}).get("uri") == "file://" + source_root + "/",
              "SRCROOT declared")
        check(loc["region"]["startLine"] == 8, f"location line: {loc['region']}")

for f in failures:
    print("FAILED:", f)
print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
