"""The SARIF and JUnit files of `cudaleak run` as CI systems read them. Runs a
leaking sample of this repository (built from samples/) under the simulated
GPU from the repository's root, from a subdirectory and from outside it, and
checks: the SARIF is valid against the SARIF 2.1.0 schema; inside the
repository every result is placed relative to it (uriBaseId SRCROOT, a URI
such as samples/pinned_leak.cu, SRCROOT the repository's root with no "./");
outside it, where no repository is found, the URIs are absolute file:// ones;
the JUnit XML has consistent counts and one failing case per leak.

    python3 check_ci_formats.py CUDALEAK SAMPLE SOURCE_DIR OUT_DIR
"""
import json
import pathlib
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import jsonschema

cudaleak, sample, source, out = (pathlib.Path(a).absolute() for a in sys.argv[1:5])
schema = json.loads((pathlib.Path(__file__).parent / "sarif-schema-2.1.0.json").read_text())
validator = jsonschema.Draft4Validator(schema)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run_in(cwd, name, extra=()):
    sarif, junit = out / f"{name}.sarif", out / f"{name}.xml"
    done = subprocess.run([str(cudaleak), "run", "--simulated-gpu", "-o", str(out / f"{name}.%p.json"),
                           "--sarif", str(sarif), "--junit", str(junit), *extra, "--", str(sample)],
                          cwd=cwd, capture_output=True, text=True)
    check(done.returncode == 0 and sarif.exists() and junit.exists(), f"{name}: cudaleak run wrote SARIF and JUnit")
    if failures:
        print(done.stderr)
        sys.exit(1)
    return json.loads(sarif.read_text()), ET.parse(junit).getroot()


def check_schema(name, sarif):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(sarif)]
    check(not errors, f"{name}: valid against the SARIF 2.1.0 schema {errors[:3]}")


def locations(sarif):
    return [loc["physicalLocation"]["artifactLocation"]
            for r in sarif["runs"][0]["results"] for loc in r.get("locations", [])]


def check_junit(name, junit, leaks):
    cases = list(junit.iter("testcase"))
    failed = [c for c in cases if c.find("failure") is not None]
    check(junit.tag == "testsuites" and int(junit.get("tests")) == len(cases)
          and int(junit.get("failures")) == len(failed), f"{name}: JUnit counts match its cases")
    check(len(failed) == leaks and all(c.get("classname") and c.get("name") for c in cases),
          f"{name}: JUnit has one failing, named case per leak ({len(failed)} for {leaks})")


shutil.rmtree(out, ignore_errors=True)
out.mkdir(parents=True)
expected_root = "file://" + str(source) + "/"
for name, cwd, extra in [("root", source, ()), ("subdirectory", source / "samples", ()),
                         ("source-root", out, ("--source-root", str(source) + "/."))]:
    sarif, junit = run_in(cwd, name, extra)
    check_schema(name, sarif)
    bases = sarif["runs"][0].get("originalUriBaseIds", {})
    check(bases.get("SRCROOT", {}).get("uri") == expected_root,
          f"{name}: SRCROOT is the repository's root {expected_root} ({bases})")
    where = locations(sarif)
    check(len(where) >= 1 and all(a.get("uriBaseId") == "SRCROOT" and a["uri"] == "samples/pinned_leak.cu" for a in where),
          f"{name}: every result at samples/pinned_leak.cu relative to SRCROOT ({where})")
    check_junit(name, junit, len(sarif["runs"][0]["results"]))

# Outside any repository (a scratch directory with no .git above it, when the
# output directory is not inside one): absolute URIs, no SRCROOT.
outside = pathlib.Path("/tmp") / f"cudaleak-ci-formats-{out.name}"
shutil.rmtree(outside, ignore_errors=True)
outside.mkdir()
if not any((p / ".git").exists() for p in [outside, *outside.parents]):
    sarif, _ = run_in(outside, "outside")
    check_schema("outside", sarif)
    check("originalUriBaseIds" not in sarif["runs"][0], "outside: no SRCROOT")
    check(all("uriBaseId" not in a and a["uri"] == "file://" + str(source / "samples/pinned_leak.cu")
              for a in locations(sarif)), "outside: absolute file:// URIs")
shutil.rmtree(outside, ignore_errors=True)

print(f"{len(failures)} of the checks failed" if failures else "SARIF and JUnit as CI systems read them")
sys.exit(1 if failures else 0)
