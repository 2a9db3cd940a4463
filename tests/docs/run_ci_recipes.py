"""Runs the recipes of docs/ci.md as written (the GitHub Actions steps, the
GitLab CI script, the baseline commands) in a scratch CMake project whose
tests are two sample programs, one clean and one leaking, under the
simulated GPU. Only /opt/cudaleak is replaced, by an install of this build.
Asserts the documented outcomes; exits non-zero on any difference.

    python3 run_ci_recipes.py BUILD_DIR SAMPLES_DIR DOCS_CI_MD OUT_DIR
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

build, samples, ci_md, out = (pathlib.Path(a).resolve() for a in sys.argv[1:5])
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def blocks(text, language):
    return re.findall(r"```" + language + r"\n(.*?)```", text, re.S)


def yaml_items(block, key):
    """The commands of `- run:` steps (key "run") or of a `script:` list (key
    "script"), continuation lines joined as YAML folds a plain scalar."""
    items, current, indent, in_script = [], None, 0, False
    for line in block.splitlines():
        stripped = line.strip()
        start = re.match(r"(\s*)- (run: )?(.*)", line)
        if current is not None and stripped and len(line) - len(line.lstrip()) > indent and not stripped.startswith("- "):
            current.append(stripped)
            continue
        if current is not None:
            items.append(" ".join(current))
            current = None
        if start and ((key == "run" and start.group(2)) or (key == "script" and in_script)):
            current, indent = [start.group(3)], len(start.group(1))
        if key == "script":
            in_script = stripped == "script:" or (in_script and (stripped.startswith("- ") or not stripped))
    if current is not None:
        items.append(" ".join(current))
    return items


text = ci_md.read_text()
github = next(b for b in blocks(text, "yaml") if "actions/checkout" in b)
gitlab = next(b for b in blocks(text, "yaml") if "script:" in b)
baseline_block = next(b for b in blocks(text, "") if "cudaleak baseline" in b)
pytest_block = next(b for b in blocks(text, "sh") if "pytest_cudaleak-" in b)

shutil.rmtree(out, ignore_errors=True)
prefix = out / "opt-cudaleak"
subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix)], check=True, stdout=subprocess.DEVNULL)
project = out / "project"
project.mkdir(parents=True)
(project / "CMakeLists.txt").write_text(f"""cmake_minimum_required(VERSION 3.24)
project(recipes LANGUAGES NONE)
enable_testing()
add_test(NAME clean COMMAND {samples}/sample_clean_shared)
add_test(NAME loop COMMAND {samples}/sample_loop_leak_shared)
""")
(project / "tests").write_text(f"#!/bin/sh\n{samples}/sample_clean_shared && exec {samples}/sample_loop_leak_shared\n")
(project / "tests").chmod(0o755)
(project / "cudaleak.supp").write_text("# nothing suppressed yet\n")
subprocess.run(["git", "init", "-q", str(project)], check=True)

env = dict(os.environ)
env["PATH"] = f"{prefix}/bin:" + env["PATH"]                       # the baseline recipe calls plain `cudaleak`
env["LD_LIBRARY_PATH"] = f"{prefix}/lib/cudaleak/simcuda"                    # the "driver" of this machine
env.pop("CUDALEAK_OPTIONS", None)


def run(command):
    command = command.replace("/opt/cudaleak", str(prefix))
    done = subprocess.run(["bash", "-c", command], cwd=project, env=env, capture_output=True, text=True)
    print(f"$ {command}\n  -> status {done.returncode}")
    return done


def junit_cases():
    root = ET.parse(project / "leaks.xml").getroot()
    return [(c.get("name"), c.find("failure") is not None, c.find("skipped") is not None) for c in root.iter("testcase")]


# GitHub Actions: build, then the gated ctest with JUnit, SARIF and reports/.
steps = yaml_items(github, "run")
check(len(steps) == 2, f"GitHub Actions recipe has its two run steps ({len(steps)})")
check(run(steps[0]).returncode == 0, "GitHub step 1 (configure and build) succeeds")
gated = run(steps[1])
check(gated.returncode == 1, "GitHub step 2 exits 1: a test leaked")
check(any(fail and "device leak at" in name for name, fail, _ in junit_cases()), "leaks.xml has the device leak as a failure")
sarif = json.loads((project / "leaks.sarif").read_text())
check(any(r["ruleId"] == "cudaleak/device-leak" for r in sarif["runs"][0]["results"]), "leaks.sarif has the device leak")
check(len(list((project / "reports").glob("cudaleak.*.json"))) >= 2, "reports/ holds a report per test process")
rules = run(f"{prefix}/bin/cudaleak report --gen-suppressions reports/*.json")
rule_lines = [l for l in rules.stdout.splitlines() if l.startswith("leak:")]
check(bool(rule_lines), f"cudaleak report --gen-suppressions gives rules: {rule_lines}")
(project / "cudaleak.supp").write_text("\n".join(rule_lines) + "\n")
shutil.rmtree(project / "reports")
check(run(steps[1]).returncode == 0, "GitHub step 2 exits 0 once the leak is suppressed")
check(all(not fail for _, fail, _ in junit_cases()), "leaks.xml has no failure then")

# Baselines: today's leaks, the baseline, then the gate against it.
commands = [l.split("#")[0].strip() for l in baseline_block.splitlines() if l.strip()]
check(len(commands) == 3, f"the baseline recipe has three commands ({len(commands)})")
statuses = [run(c).returncode for c in commands]
check(statuses == [0, 0, 0], f"baseline recipe: run, baseline, gated run all exit 0 ({statuses})")

# GitLab CI: the gate against the baseline, with JUnit.
script = yaml_items(gitlab, "script")
check(len(script) == 1, f"GitLab recipe has one script command ({len(script)})")
shutil.rmtree(project / "reports", ignore_errors=True)
check(run(script[0]).returncode == 0, "GitLab script exits 0: the only leak is in the baseline")
check(any(skipped and "device leak at" in name for name, _, skipped in junit_cases()),
      "leaks.xml lists the baselined leak as skipped")
(project / "cudaleak.baseline").write_text('{"format": "cudaleak-baseline", "format_version": 1, "sites": []}\n')
check(run(script[0]).returncode == 1, "GitLab script exits 1 against an empty baseline")

# pytest: the wheel into a fresh venv with no network (--no-index), then a
# gated session with a memory budget: one test within it, one over it.
tests = project / "gpu_tests"
tests.mkdir()
(tests / "test_gpu.py").write_text("""import ctypes
cudart = ctypes.CDLL("libcudart.so.13")
def use(size):
    ptr = ctypes.c_void_p()
    assert cudart.cudaMalloc(ctypes.byref(ptr), ctypes.c_size_t(size)) == 0
    cudart.cudaFree(ptr)
def test_small():
    use(4 << 20)
def test_large():
    use(12 << 20)
""")
env["PATH"] = f"{prefix}/bin:/usr/bin:" + env["PATH"]  # the system's python3, which has pytest
commands = [l.strip() for l in pytest_block.splitlines() if l.strip()]
check(len(commands) == 3, f"the pytest recipe has three commands ({len(commands)})")
shutil.rmtree(project / "reports", ignore_errors=True)
done = [run(c) for c in commands]
check(done[0].returncode == 0, "pytest recipe: the venv is made")
check(done[1].returncode == 0, "pytest recipe: the wheel installs with --no-index: " + done[1].stdout + done[1].stderr)
session = done[2].stdout + done[2].stderr
check(done[2].returncode == 1, "pytest recipe: the gated session exits 1 (a test over its budget)")
check("FAILED gpu_tests/test_gpu.py::test_large" in session and "1 failed, 1 passed" in session,
      "pytest recipe: only the test over its budget fails")
check("cudaleak: test_large used 12.0 MiB of device memory at its peak on device 0, over its budget of 8.0 MiB "
      "(cuda_limit_memory)" in session, "pytest recipe: the failure names the peak and the budget")

print(f"{len(failures)} of the checks failed" if failures else "every docs/ci.md recipe behaved as documented")
sys.exit(1 if failures else 0)
