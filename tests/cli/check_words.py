"""The words of the cudaleak command as users of LeakSanitizer, Valgrind and git
expect them: every command's --help (aligned columns, exit 0), `cudaleak
options` aligned, each command-line error on one line that names the option
or the command, with a suggestion for a typo, and no misleading second line.

    python3 check_words.py CUDALEAK SAMPLE OUT_DIR
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

cudaleak, sample, out = (str(pathlib.Path(a).absolute()) for a in sys.argv[1:4])
failures = []
env = {k: v for k, v in os.environ.items() if k != "CUDALEAK_OPTIONS"}


def check(ok, what, detail=""):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def cl(*args, cwd=None):
    return subprocess.run([cudaleak, *args], capture_output=True, text=True, env=env, cwd=cwd)


def aligned(text, what):
    """The option rows of a help text: descriptions start in one column."""
    columns = set()
    for line in text.splitlines():
        m = re.match(r"^  (-\S.*?\S)( {2,})(\S.*)$", line)
        if m:
            columns.add(len(m.group(1)) + len(m.group(2)) + 2)
    check(len(columns) == 1, f"{what}: option descriptions start in one column ({sorted(columns)})", text)


# Every command's --help, and the top-level one.
commands = ["run", "report", "diff", "merge", "baseline", "symbolize", "options"]
top = cl("--help")
check(top.returncode == 0 and all(c in top.stdout for c in commands), "cudaleak --help lists every command", top.stdout)
for command in commands[:-1]:
    h = cl(command, "--help")
    check(h.returncode == 0 and "Usage:" in h.stdout and "--help" in h.stdout, f"cudaleak {command} --help", h.stderr)
    aligned(h.stdout, f"cudaleak {command} --help")

# cudaleak options: key, flag, type and default in aligned columns.
options = cl("options").stdout
rows = [l for l in options.splitlines() if re.match(r"^  [a-z_]+ +--", l)]
starts = {l.index(" default ") for l in rows}
flags = {l.index("--") for l in rows}
check(len(rows) >= 20 and len(starts) == 1 and len(flags) == 1, f"cudaleak options: {len(rows)} rows, aligned columns",
      "\n".join(rows))

# Errors: one line, status 2, the option or command named, a suggestion for a typo.
errors = [
    (["rnu"], "cudaleak: 'rnu' is not a cudaleak command (did you mean 'run'?); see cudaleak --help"),
    (["version"], "cudaleak: 'version' is not a cudaleak command (did you mean --version?); see cudaleak --help"),
    (["-V"], "cudaleak: unknown option -V (did you mean --version?); see cudaleak --help"),
    (["--verison"], "cudaleak: unknown option --verison (did you mean --version?); see cudaleak --help"),
    (["run", "--stak-depth", "3", "--", "true"], "(did you mean --stack-depth?)"),
    (["run", "--fail-on", "devise", "--", "true"], "--fail-on: 'devise' holds 'devise', which is not a kind (did you mean device?)"),
    (["run", "--stack-depth", "0", "--", "true"], "--stack-depth: '0' is not between 1 and 256"),
    (["run", "--option", "stak_depth=3", "--", "true"], "unknown option 'stak_depth' (did you mean stack_depth?)"),
    (["report", "--kind", "devise", "x.json"], "unknown kind 'devise' (did you mean device?)"),
]
for args, expected in errors:
    r = cl(*args)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(r.returncode == 2 and len(lines) == 1 and expected in lines[0],
          f"cudaleak {' '.join(args)}: status 2, one line with: {expected}", f"status {r.returncode}: {r.stderr}")

# A program that cannot be run: said once, no line about CUDA after it.
missing = cl("run", "--", "./no-such-program")
check(missing.returncode == 127 and "cannot run ./no-such-program" in missing.stderr
      and "no process of the run used CUDA" not in missing.stderr and len(missing.stderr.strip().splitlines()) == 1,
      "cudaleak run -- ./no-such-program: one line, status 127", missing.stderr)

shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
# An unopenable --log-path: said, and the text goes to stderr.
logged = cl("run", "--simulated-gpu", "--log-path", out + "/no/such/dir/log", "-o", out + "/log.%p.json", "--", sample)
check("cannot open log_path " + out + "/no/such/dir/log." in logged.stderr and "SUMMARY: cudaleak:" in logged.stderr,
      "an unopenable --log-path is named, the text goes to stderr", logged.stderr)

# A merged report: no ==0==, each group names its process.
for i in range(2):
    cl("run", "--simulated-gpu", "-o", f"{out}/merged.%p.json", "--", sample)
merged = cl("report", *sorted(str(p) for p in pathlib.Path(out).glob("merged.*.json")))
text = merged.stdout + merged.stderr
check("==0==" not in text and "2 processes merged" in text
      and re.search(r"never freed.* in sample_pinned_leak_shared \(pid \d+\):", text) is not None,
      "cudaleak report of two processes: no ==0==, each group names its process", text)

# symbolize: the kernel's vDSO is in every report's modules and in no file; no warning about it.
first = sorted(pathlib.Path(out).glob("merged.*.json"))[0]
raw = json.loads(first.read_text())
check(any("vdso" in m.get("path", "") for m in raw.get("modules", [])), "the report lists the vDSO among its modules")
sym = cl("symbolize", str(first), "-o", out + "/symbolized.json")
check(sym.returncode == 0 and "vdso" not in sym.stderr, "cudaleak symbolize says nothing about linux-vdso.so.1", sym.stderr)

print(f"{len(failures)} of the checks failed" if failures else "every help and error reads as documented")
sys.exit(1 if failures else 0)
