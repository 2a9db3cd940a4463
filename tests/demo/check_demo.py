"""scripts/demo.sh as a user sees it: each step's `$ ...` line is exactly the
command it then runs (recorded by a stand-in for bin/cudaleak that logs its
arguments, quoted as bash's printf %q quotes them, and runs the real one), the
steps end as the demo says, and no stack shows the simulated GPU's own source.

    python3 check_demo.py SOURCE_DIR BUILD_DIR OUT_DIR
"""
import glob
import json
import os
import pathlib
import shutil
import subprocess
import sys

source, build, out = (pathlib.Path(a).absolute() for a in sys.argv[1:4])
failures = []


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print("     " + str(detail).replace("\n", "\n     "))


# A build directory whose bin/cudaleak logs each call; the rest is the real build.
shutil.rmtree(out, ignore_errors=True)
(out / "bin").mkdir(parents=True)
for name in ("lib", "samples"):
    (out / name).symlink_to(build / name)
log = out / "calls.log"
wrapper = out / "bin" / "cudaleak"
wrapper.write_text('#!/usr/bin/env bash\n'
                   '{ printf %q "$0"; printf " %q" "$@"; printf "\\n"; } >>' + str(log) + '\n'
                   'exec ' + str(build / "bin" / "cudaleak") + ' "$@"\n')
wrapper.chmod(0o755)

env = {k: v for k, v in os.environ.items() if k not in ("CUDALEAK_OPTIONS", "NO_COLOR")}
env["CUDALEAK_BUILD"] = str(out)
demo = subprocess.run(["bash", str(source / "scripts" / "demo.sh")], cwd=source, env=env, capture_output=True,
                      text=True, timeout=280)
text = demo.stdout + demo.stderr
check(demo.returncode == 0, "the demo runs to its end", text[-3000:])

lines = demo.stdout.splitlines()
shown = [line[2:] for line in lines if line.startswith("$ ")]
calls = log.read_text().splitlines() if log.exists() else []
check(len(shown) == len(calls) and len(calls) == 5, f"one shown command per call of cudaleak ({len(shown)} shown, "
      f"{len(calls)} run)", "\n".join(shown + ["--"] + calls))
for s, c in zip(shown, calls):
    rest = s[len(c):] if s.startswith(c) else None
    check(rest is not None and (rest == "" or rest.startswith(" 2>&1 | ")), f"shown as run: {c}", s)
# Every step header is followed at once by its command.
for i, line in enumerate(lines):
    if line.startswith("== ") and line[3:4].isdigit():
        check(i + 1 < len(lines) and lines[i + 1].startswith("$ "), f"step '{line[:40]}' shows its command")

check("tests/simcuda" not in text, "no stack shows the simulated GPU's source files",
      "\n".join(l for l in text.splitlines() if "tests/simcuda" in l))
check("in cudaMalloc (libcudart.so.13)" in text or "== real GPU" in text, "the runtime's frame reads as NVIDIA's")

# Step 1 asks no gate: its report has no verdict; step 2 gates.
leak = [json.load(open(p)) for p in glob.glob(str(out / "demo" / "leak.*.json"))]
gate = [json.load(open(p)) for p in glob.glob(str(out / "demo" / "gate.*.json"))]
check(len(leak) == 1 and not leak[0]["gate"]["evaluated"], "a run without a gate option gives no verdict")
check(len(gate) == 1 and gate[0]["gate"]["evaluated"] and gate[0]["gate"]["failed"],
      "a run with --error-exitcode carries the failed verdict")
check((out / "demo" / "report.html").is_file(), "the page is written")

print(f"{len(failures)} failures" if failures else "all ok")
sys.exit(1 if failures else 0)
