#!/usr/bin/env python3
"""Runs test cases written in the project's one format: a program (or a
script) whose comments say how to build and run it and what must be true of
what a user reads. The same case runs under the simulated GPU in CTest and on
real GPUs through scripts/gpu-test.sh; REQUIRES decides where.

Directives, in comments (`//` or `#`) anywhere in the case file:

    REQUIRES: gpu, nvcc, torch     every feature named must be present
    UNSUPPORTED: simulated         skipped where any feature named is present
    ENV: KEY=VALUE                 set for every BUILD and RUN command (%root, %S and %t in VALUE replaced)
    PYTHONS: all                   run once under each interpreter of --pythons (CTest: every CPython found)
    BUILD: %nvcc %s -o %t/prog     a build step (exit status 0 expected)
    RUN: %run -o %t/r.json -- %t/prog leak
    RUN: %expr %t/r.json \          a line ending in a backslash goes on in the
    RUN:   'summary["leaked_count"] == 1'   next RUN: line (one command), as in lit
    RUN(exit=7): ...               a run whose exit status must be 7
    RUN(signal=SIGSEGV): ...       a run that must die of this signal
    CHECK: text                    found in the last RUN's output, after the previous CHECK's match
    CHECK-RE: regular expression   the same, as a Python regular expression
    CHECK-NOT: text                absent between the previous match and the next CHECK's (or the end)
    CHECK-NONE: text               absent from the whole output of the last RUN
    CHECK-COUNT(3): text           exactly this many times in the whole output of the last RUN
    CHECK-DAG: text                found after the previous CHECK's match; a run of CHECK-DAG lines
    CHECK-DAG-RE: expression       (either kind) matches in any order, and the next CHECK after them all
    LINES-OF: %root/tests/gpu/p.py the `# LINE:name` marks of a program kept elsewhere, named as the case's

A line of the case marked `// LINE:name` (or `# LINE:name`) is named in a
CHECK or a command as %line:name, so a check on "app.cu:17" survives edits
above it; LINES-OF adds the marks of a program the case runs from elsewhere
(a name marked twice is refused). Under `PYTHONS: all` the case runs once
for each interpreter of --pythons (colon-separated; by default the one
%python names), each run in a folder of its own with %python and the
features of that interpreter, and fails when any run fails; elsewhere
%python is $PYTHON or python3, or for a case that REQUIRES Python modules
the first of them and /usr/bin/python3 that imports them all.
A RUN's output is its stdout followed by its stderr; in a CHECK, %t, %S and
%root are the paths they name. Features: `simulated` or `gpu` (the mode),
`gpus>=N`, `nvcc`, `long` (given --long: a case that runs for minutes, as a
soak), `python>=3.12` (the interpreter's version), `root` (running as
root), `pid-namespaces` (`unshare --pid` permitted), `built=NAME` (the
build has %build/tests/e2e/NAME, a program built only where its framework
is), `command=NAME` (NAME found on PATH, the CUDA toolkit's bin first:
`command=compute-sanitizer`, `command=tmux`), `cuda-samples`
($CUDA_SAMPLES names a checkout of NVIDIA's cuda-samples, with its
Samples/ and Common/), `vulkan` (the Vulkan loader and headers, installed
or as the .deb files of libvulkan1 and libvulkan-dev in %root/.gl, which
the case unpacks), and any Python module the case names (`torch`, `jax`,
`cupy`, ...: present when the interpreter imports it). Substitutions:
%s the case file, %S its folder, %t a fresh folder for the case, %root the
source tree, %cudaleak the launcher, %run `%cudaleak run` with
`--simulated-gpu` in the simulated mode, %report `%cudaleak report`, %nvcc
nvcc with `-g -cudart shared` (which the simulated GPU needs), %nvcc-static
nvcc with `-g -cudart static` (real GPUs only), %python the interpreter
(as above),
%expr tests/cases/tools/report_expr.py run by the runner's own interpreter
(expressions over a report's JSON, `CHECK: holds: EXPR`), %build the tree
the launcher is in (a build folder or a stage: the project's own test
programs in %build/tests/e2e, the samples in %build/samples), %% a literal %
(as in `date +%%s`), %preload
`env LD_PRELOAD=<the library>` (with the simulated GPU's libraries first on
LD_LIBRARY_PATH in the simulated mode), for a run under plain preload with
CUDALEAK_OPTIONS. Every command starts with no CUDALEAK_* variable and no
LD_PRELOAD from the runner's own environment.

Exit status: 0 every case passed (or was skipped), 1 a case failed, 77 the
only case given was skipped (CTest's SKIP_RETURN_CODE).
Usage: runner.py --mode simulated|gpu --cudaleak PATH [--out DIR] [--filter RE] [--long] [--pythons PY:PY...]
                 CASE_OR_FOLDER...
       runner.py --self-test   (planted cases that must pass, fail and skip)
"""
import argparse
import functools
import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

DIRECTIVE = re.compile(r"^\s*(?://|#)\s*(REQUIRES|UNSUPPORTED|ENV|PYTHONS|LINES-OF|BUILD|"
                       r"RUN(?:\((?:exit=(\d+)|signal=(SIG[A-Z0-9]+))\))?|"
                       r"CHECK(?:-RE|-NOT|-NONE|-DAG-RE|-DAG)?|CHECK-COUNT\((\d+)\)):\s?(.*?)\s*$")
SKIPPED = 77
ROOT = pathlib.Path(__file__).resolve().parents[2]


class CaseError(Exception):
    pass


@functools.lru_cache(maxsize=None)
def python_has(interpreter, module):
    return subprocess.run([interpreter, "-c", "import " + module], capture_output=True).returncode == 0


@functools.lru_cache(maxsize=None)
def python_version(interpreter):
    try:
        out = subprocess.run([interpreter, "-c", "import sys; print('%d.%d.%d' % sys.version_info[:3])"],
                             capture_output=True, text=True, timeout=60).stdout.strip()
    except OSError:
        out = ""
    if not re.fullmatch(r"\d+\.\d+\.\d+", out):
        raise CaseError("the interpreter %s does not run" % interpreter)
    return tuple(map(int, out.split(".")))


def python():
    return os.environ.get("PYTHON") or shutil.which("python3") or sys.executable


# Where a case that requires Python modules looks after python(): a pyenv python3 first on PATH may lack
# a module (pytest) that the system's interpreter has.
FALLBACK_PYTHONS = ["/usr/bin/python3"]


def python_with(modules):
    """The first interpreter of python() and FALLBACK_PYTHONS that imports every module; else python()."""
    found = [p for p in dict.fromkeys([python()] + FALLBACK_PYTHONS) if os.access(p, os.X_OK)]
    return next((p for p in found if all(python_has(p, m) for m in modules)), python())


def python_modules(features):
    """The features that name Python modules: words that are none of has_feature's own."""
    return [f for f in map(str.strip, features) if f not in ("simulated", "gpu", "long", "root", "nvcc", "vulkan")
            and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", f)]


def cuda_root():
    return os.environ.get("CUDA_ROOT", "/usr/local/cuda")


@functools.lru_cache(maxsize=None)
def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in out.splitlines() if line.startswith("GPU "))


def has_feature(feature, args, interpreter):
    feature, mode = feature.strip(), args.mode
    if feature in ("simulated", "gpu"):
        return feature == mode
    m = re.fullmatch(r"gpus>=(\d+)", feature)
    if m:
        return mode == "gpu" and gpu_count() >= int(m.group(1))
    m = re.fullmatch(r"built=([\w.-]+)", feature)
    if m:
        return os.access(pathlib.Path(args.cudaleak).parent.parent / "tests" / "e2e" / m.group(1), os.X_OK)
    if feature == "long":
        return args.long
    if feature == "root":
        return os.geteuid() == 0
    if feature == "pid-namespaces":
        return subprocess.run(["unshare", "--pid", "--fork", "true"], capture_output=True).returncode == 0
    if feature == "nvcc":
        return os.access(os.path.join(cuda_root(), "bin", "nvcc"), os.X_OK)
    m = re.fullmatch(r"python>=(\d+)\.(\d+)", feature)
    if m:
        return python_version(interpreter)[:2] >= (int(m.group(1)), int(m.group(2)))
    m = re.fullmatch(r"command=([\w.+-]+)", feature)
    if m:
        return shutil.which(m.group(1), path=os.path.join(cuda_root(), "bin") + os.pathsep + os.environ.get("PATH", "")) is not None
    if feature == "cuda-samples":
        checkout = os.environ.get("CUDA_SAMPLES", "")
        return bool(checkout) and all(os.path.isdir(os.path.join(checkout, d)) for d in ("Samples", "Common"))
    if feature == "vulkan":
        return has_vulkan(args.root)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", feature):
        return python_has(interpreter, feature)
    raise CaseError("unknown feature '%s'" % feature)


def has_vulkan(root):
    """The Vulkan loader and headers: installed, or packed in root/.gl for the case to unpack with dpkg -x."""
    installed = os.path.exists("/usr/include/vulkan/vulkan.h") and any(
        os.path.exists(os.path.join(d, "libvulkan.so.1")) for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"))
    packed = [list(pathlib.Path(root, ".gl").glob(name + "_*.deb")) for name in ("libvulkan1", "libvulkan-dev")]
    return installed or (all(packed) and shutil.which("dpkg") is not None)


LINE_MARK = re.compile(r"(?://|#)\s*LINE:(\w+)")
LINE_USE = re.compile(r"%line:(\w+)")


def line_marks(path, lines):
    """The case's own `LINE:name` marks and those of the files its LINES-OF lines name."""
    marks = {m.group(1): number for number, line in enumerate(lines, 1) for m in LINE_MARK.finditer(line)}
    for line in lines:
        m = DIRECTIVE.match(line)
        if not m or m.group(1) != "LINES-OF":
            continue
        other = pathlib.Path(re.sub("%root|%S", lambda p: {"%root": str(ROOT), "%S": str(path.parent)}[p.group(0)],
                                    m.group(5)))
        if not other.is_file():
            raise CaseError("%s: LINES-OF names no file: %s" % (path, other))
        for number, text in enumerate(other.read_text(errors="replace").splitlines(), 1):
            for mark in LINE_MARK.finditer(text):
                if mark.group(1) in marks:
                    raise CaseError("%s: LINE:%s is marked twice (again in %s)" % (path, mark.group(1), other))
                marks[mark.group(1)] = number
    return marks


def parse(path):
    case = {"requires": [], "unsupported": [], "env": {}, "steps": [], "pythons": False}
    lines = path.read_text(errors="replace").splitlines()
    marks = line_marks(path, lines)

    def lines_named(text, number):
        def named(m):
            if m.group(1) not in marks:
                raise CaseError("%s:%d: %%line:%s names no LINE:%s mark" % (path, number, m.group(1), m.group(1)))
            return str(marks[m.group(1)])
        return LINE_USE.sub(named, text)

    for number, line in enumerate(lines, 1):
        m = DIRECTIVE.match(line)
        if not m:
            continue
        kind, exit_code, signal_name, count, text = m.groups()
        if kind in ("REQUIRES", "UNSUPPORTED"):
            case[kind.lower()] += [f for f in text.split(",") if f.strip()]
        elif kind == "ENV":
            key, _, value = text.partition("=")
            case["env"][key.strip()] = value
        elif kind == "PYTHONS":
            if text != "all":
                raise CaseError("%s:%d: PYTHONS takes 'all', not '%s'" % (path, number, text))
            case["pythons"] = True
        elif kind == "LINES-OF":
            continue  # read by line_marks
        elif kind == "RUN" and case["steps"] and case["steps"][-1]["command"].endswith("\\"):
            case["steps"][-1]["command"] = case["steps"][-1]["command"][:-1] + " " + lines_named(text, number)
        elif kind == "BUILD" or kind.startswith("RUN"):
            text = lines_named(text, number)
            if signal_name and not isinstance(getattr(signal, signal_name, None), signal.Signals):
                raise CaseError("%s:%d: unknown signal %s" % (path, number, signal_name))
            case["steps"].append({"kind": "BUILD" if kind == "BUILD" else "RUN", "command": text, "line": number,
                                  "exit": int(exit_code) if exit_code else 0,
                                  "signal": getattr(signal, signal_name) if signal_name else None, "checks": []})
        else:
            if not case["steps"] or case["steps"][-1]["kind"] != "RUN":
                raise CaseError("%s:%d: %s before any RUN" % (path, number, kind))
            case["steps"][-1]["checks"].append((kind, lines_named(text, number), int(count) if count else None, number))
    if any(s["command"].endswith("\\") for s in case["steps"]):
        raise CaseError("%s: a command ends in a backslash with no RUN line after it" % path)
    if not any(s["kind"] == "RUN" for s in case["steps"]):
        raise CaseError("%s: no RUN line" % path)
    if not any(s["checks"] for s in case["steps"]):
        raise CaseError("%s: no CHECK line: a case that checks nothing proves nothing" % path)
    return case


def substitute(text, path, scratch, args, interpreter):
    cudaleak = shlex.quote(args.cudaleak)
    run = cudaleak + " run" + (" --simulated-gpu" if args.mode == "simulated" else "")
    build = pathlib.Path(args.cudaleak).parent.parent
    preload = "env LD_PRELOAD=" + shlex.quote(str(build / "lib" / "libcudaleak.so"))
    if args.mode == "simulated":
        preload += " LD_LIBRARY_PATH=" + shlex.quote(str(build / "lib" / "cudaleak" / "simcuda"))
    table = {"%cudaleak": cudaleak, "%run": run, "%report": cudaleak + " report",
             "%build": shlex.quote(str(build)), "%preload": preload,
             # The checker needs no module of the case's: the runner's own interpreter (no pyenv shim to start).
             "%expr": shlex.quote(sys.executable) + " " + shlex.quote(str(args.root / "tests/cases/tools/report_expr.py")),
             "%nvcc": shlex.quote(os.path.join(cuda_root(), "bin", "nvcc")) + " -g -cudart shared",
             "%nvcc-static": shlex.quote(os.path.join(cuda_root(), "bin", "nvcc")) + " -g -cudart static",
             "%python": shlex.quote(interpreter), "%root": shlex.quote(str(args.root)),
             "%%": "%", "%s": shlex.quote(str(path)), "%S": shlex.quote(str(path.parent)), "%t": shlex.quote(str(scratch))}
    return re.sub("|".join(sorted(map(re.escape, table), key=len, reverse=True)), lambda m: table[m.group(0)], text)


def paths_in_check(kind, text, places):
    """%t, %S and %root in a CHECK are the paths they name (escaped in a CHECK-RE)."""
    def path(m):
        return re.escape(places[m.group(0)]) if kind == "CHECK-RE" else places[m.group(0)]
    return re.sub("%root|%S|%t", path, text)


def find(kind, text, output, position):
    m = re.compile(text if kind.endswith("-RE") else re.escape(text)).search(output, position)
    return (m.start(), m.end()) if m else None


def check_output(output, checks, where):
    position = 0
    pending_not = []
    i = 0
    while i < len(checks):
        kind, text, count, line = checks[i]
        i += 1
        if kind == "CHECK-NOT":
            pending_not.append((text, line))
            continue
        if kind == "CHECK-NONE":
            if text in output:
                raise CaseError("%s line %d: CHECK-NONE found: %s" % (where, line, text))
            continue
        if kind.startswith("CHECK-COUNT"):
            found = output.count(text)
            if found != count:
                raise CaseError("%s line %d: CHECK-COUNT(%d) found %d of: %s" % (where, line, count, found, text))
            continue
        group = [(kind, text, line)]
        while kind.startswith("CHECK-DAG") and i < len(checks) and checks[i][0].startswith("CHECK-DAG"):
            group.append((checks[i][0], checks[i][1], checks[i][3]))
            i += 1
        spans = []
        for kind, text, line in group:
            span = find(kind, text, output, position)
            if not span:
                raise CaseError("%s line %d: %s not found after offset %d: %s" % (where, line, kind, position, text))
            spans.append(span)
        start = min(s for s, _ in spans)
        for absent, not_line in pending_not:
            if absent in output[position:start]:
                raise CaseError("%s line %d: CHECK-NOT found: %s" % (where, not_line, absent))
        pending_not = []
        position = max(e for _, e in spans)
    for absent, not_line in pending_not:
        if absent in output[position:]:
            raise CaseError("%s line %d: CHECK-NOT found: %s" % (where, not_line, absent))


def run_case(path, args):
    case = parse(path)
    scratch = args.out / path.parent.name / path.stem  # two areas may hold one name
    if not case["pythons"]:
        return run_once(path, case, args, python_with(python_modules(case["requires"])), scratch)
    ran, skipped = 0, {}
    for n, interpreter in enumerate(args.pythons, 1):
        try:
            outcome, detail = run_once(path, case, args, interpreter, scratch / ("python-%d" % n))
        except CaseError as e:
            raise CaseError("under %s: %s" % (interpreter, e))
        if outcome == "SKIP":
            skipped.setdefault(detail, []).append(interpreter)
        ran += outcome == "PASS"
    why = "; ".join("%s under %s" % (detail, ", ".join(under)) for detail, under in skipped.items())
    if not ran:
        return "SKIP", why
    return "PASS", "%d steps under %d interpreter%s%s" % (len(case["steps"]), ran, "s" if ran > 1 else "",
                                                        " (skipped: %s)" % why if why else "")


def run_once(path, case, args, interpreter, scratch):
    missing = [f.strip() for f in case["requires"] if not has_feature(f, args, interpreter)]
    present = [f.strip() for f in case["unsupported"] if has_feature(f, args, interpreter)]
    if missing or present:
        return "SKIP", "needs " + ", ".join(missing) if missing else "unsupported with " + ", ".join(present)
    scratch = scratch.resolve()
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    # Paths in ENV values are written unquoted: the value is not read by a shell.
    places = {"%root": str(args.root), "%S": str(path.parent), "%t": str(scratch)}
    clean = {key: value for key, value in os.environ.items()  # a case starts clean, as a user's shell would
             if not key.startswith("CUDALEAK_") and key != "LD_PRELOAD"}
    env = dict(clean, **{key: re.sub("%root|%S|%t", lambda m: places[m.group(0)], value)
                              for key, value in case["env"].items()})
    env["PATH"] = os.path.join(cuda_root(), "bin") + os.pathsep + env.get("PATH", "")
    log = []
    for step in case["steps"]:
        command = substitute(step["command"], path, scratch, args, interpreter)
        where = "%s:%d" % (path.name, step["line"])
        result = subprocess.run(command, shell=True, cwd=scratch, env=env, capture_output=True, text=True,
                                errors="replace", timeout=args.timeout)
        output = result.stdout + result.stderr
        log.append("$ %s\n%s[status %d]\n" % (command, output, result.returncode))
        (scratch / "log.txt").write_text("".join(log))
        if step["signal"]:  # the shell reports a death by signal N as -N (exec'd) or 128+N
            if result.returncode not in (-step["signal"], 128 + step["signal"]):
                raise CaseError("%s: %s exited %d, expected death by %s\n%s" % (
                    where, step["kind"], result.returncode, step["signal"].name, output[-4000:]))
        elif result.returncode != step["exit"]:
            raise CaseError("%s: %s exited %d, expected %d\n%s" % (where, step["kind"], result.returncode,
                                                                    step["exit"], output[-4000:]))
        checks = [(kind, paths_in_check(kind, text, places), count, line) for kind, text, count, line in step["checks"]]
        try:
            check_output(output, checks, path.name)
        except CaseError as e:
            raise CaseError("%s\n--- output of %s:\n%s" % (e, where, output[-6000:]))
    return "PASS", "%d steps" % len(case["steps"])


def cases_in(paths, pattern):
    found = []
    for p in map(pathlib.Path, paths):
        found += sorted(q for q in p.rglob("*") if q.is_file() and q.name != "runner.py" and "tools" not in
                        q.relative_to(p).parts and q.suffix in (".cu", ".cpp", ".py", ".sh")) if p.is_dir() else [p]
    return [p.resolve() for p in found if not pattern or re.search(pattern, str(p))]


# Cases the runner must pass, and cases it must fail (with the reason's words).
SELF_TEST = {
    "pass.sh": ("PASS", "# RUN: echo one two three; echo four >&2\n# CHECK: one\n# CHECK-NOT: zero\n# CHECK: three\n"
                        "# CHECK-RE: fo+ur\n# CHECK-COUNT(1): two\n# CHECK-NONE: five\n"
                        "# RUN(exit=3): exit 3\n# CHECK-NONE: anything\n"),
    "missing.sh": ("FAIL", "# RUN: echo one\n# CHECK: two\n", "CHECK not found"),
    "order.sh": ("FAIL", "# RUN: echo two one\n# CHECK: one\n# CHECK: two\n", "CHECK not found"),
    "not.sh": ("FAIL", "# RUN: echo one two three\n# CHECK: one\n# CHECK-NOT: two\n# CHECK: three\n", "CHECK-NOT found"),
    "none.sh": ("FAIL", "# RUN: echo one\n# CHECK: one\n# CHECK-NONE: on\n", "CHECK-NONE found"),
    "count.sh": ("FAIL", "# RUN: echo a a\n# CHECK-COUNT(1): a\n", "CHECK-COUNT(1) found 2"),
    "status.sh": ("FAIL", "# RUN: exit 2\n# CHECK-NONE: x\n", "exited 2, expected 0"),
    "signal.sh": ("PASS", "# RUN(signal=SIGTERM): kill -TERM $$\n# CHECK-NONE: x\n"),
    "no-signal.sh": ("FAIL", "# RUN(signal=SIGSEGV): exit 0\n# CHECK-NONE: x\n", "expected death by SIGSEGV"),
    "nothing.sh": ("FAIL", "# RUN: echo one\n", "no CHECK line"),
    "line.sh": ("PASS", "# RUN: grep -n marked %s\n# CHECK: %line:here:\n# LINE:here marked\n"),
    "no-line.sh": ("FAIL", "# RUN: echo 1\n# CHECK: %line:nowhere\n", "names no LINE:nowhere mark"),
    "continued.sh": ("PASS", "# RUN: echo one \\\n# RUN:   two\n# CHECK: one two\n"),
    "dangling.sh": ("FAIL", "# RUN: echo one \\\n# CHECK: one\n", "ends in a backslash"),
    "clean-env.sh": ("PASS", "# RUN: echo [$CUDALEAK_OPTIONS$LD_PRELOAD]\n# CHECK: []\n"),
    "check-path.sh": ("PASS", "# RUN: echo $PWD/x.y\n# CHECK-RE: \\A%t/x\\.y$\n# CHECK-COUNT(1): %t/x.y\n"),
    "percent.sh": ("PASS", "# RUN: printf '%%s-%%d' x 1\n# CHECK-RE: \\Ax-1\\Z\n"),
    "not-built.sh": ("SKIP", "# REQUIRES: built=no_such_program\n# RUN: echo one\n# CHECK: one\n"),
    "skip.sh": ("SKIP", "# REQUIRES: gpus>=64\n# RUN: echo one\n# CHECK: one\n"),
    "command.sh": ("PASS", "# REQUIRES: command=sh\n# RUN: echo one\n# CHECK: one\n"),
    "no-command.sh": ("SKIP", "# REQUIRES: command=no-such-command\n# RUN: echo one\n# CHECK: one\n"),
    "no-samples.sh": ("SKIP", "# REQUIRES: cuda-samples\n# RUN: echo one\n# CHECK: one\n"),
    "vulkan.sh": ("SKIP", "# REQUIRES: vulkan\n# UNSUPPORTED: vulkan\n# RUN: echo one\n# CHECK: one\n"),
    "long.sh": ("SKIP", "# REQUIRES: long\n# RUN: echo one\n# CHECK: one\n"),
    "dag.sh": ("PASS", "# RUN: echo a b c d\n# CHECK: a\n# CHECK-DAG: c\n# CHECK-DAG-RE: b|x\n# CHECK-NOT: a\n"
                       "# CHECK: d\n"),
    "dag-missing.sh": ("FAIL", "# RUN: echo b a\n# CHECK: a\n# CHECK-DAG: b\n", "CHECK-DAG not found"),
    "dag-then.sh": ("FAIL", "# RUN: echo a c b\n# CHECK-DAG: a\n# CHECK-DAG: c\n# CHECK: b\n# CHECK: c\n",
                    "CHECK not found"),
    "lines-of.sh": ("PASS", "# LINES-OF: %S/program.txt\n# RUN: echo program.txt:%line:two\n"
                            "# CHECK-RE: \\Aprogram\\.txt:2$\n# CHECK-COUNT(1): program.txt:%line:two\n"),
    "lines-of-twice.sh": ("FAIL", "# LINES-OF: %S/program.txt\n# RUN: echo 1 # LINE:two\n# CHECK: 1\n",
                          "LINE:two is marked twice"),
    "lines-of-none.sh": ("FAIL", "# LINES-OF: %S/nowhere.txt\n# RUN: echo 1\n# CHECK: 1\n", "LINES-OF names no file"),
    # PYTHON is a planted interpreter that imports nothing, FALLBACK_PYTHONS one that has planted_module.
    "python.sh": ("PASS", "# RUN: %python\n# CHECK: first interpreter\n"),
    "python-with.sh": ("PASS", "# REQUIRES: planted_module\n# RUN: %python\n# CHECK: fallback interpreter\n"),
    "python-none.sh": ("SKIP", "# REQUIRES: planted_module, absent_module\n# RUN: %python\n# CHECK: x\n",
                       "needs planted_module, absent_module"),
    # The self-test's interpreters: its own, and a second path to it (other-python).
    "pythons.sh": ("PASS", "# PYTHONS: all\n# RUN: %python -c 'print(\"ran\")' && echo $PWD\n# CHECK: ran\n"
                           "# CHECK-RE: /python-[12]$\n", "under 2 interpreters"),
    "pythons-one-fails.sh": ("FAIL", "# PYTHONS: all\n# RUN: case %python in *other-python) exit 5;; esac\n"
                                     "# CHECK-NONE: x\n", "other-python: pythons-one-fails.sh:2: RUN exited 5"),
    "pythons-version.sh": ("SKIP", "# PYTHONS: all\n# REQUIRES: python>=99.0\n# RUN: echo one\n# CHECK: one\n",
                           "needs python>=99.0 under "),
}
# Files the planted cases read (not cases themselves).
SELF_TEST_FILES = {"program.txt": "one\ntwo  # LINE:two\n"}
# The planted interpreters: `-c "import M"` succeeds for the module each has; a run says which it is.
PLANTED_PYTHONS = {"first": "", "fallback": "planted_module"}


def self_test(args):
    import tempfile
    failures = 0
    os.environ["CUDALEAK_OPTIONS"] = "planted=1"  # must not reach a case (clean-env.sh)
    os.environ.pop("CUDA_SAMPLES", None)  # no checkout of cuda-samples (no-samples.sh)
    with tempfile.TemporaryDirectory() as scratch:
        folder = pathlib.Path(scratch)
        args.out = folder / "out"
        for name, text in SELF_TEST_FILES.items():
            (folder / name).write_text(text)
        for name, module in PLANTED_PYTHONS.items():
            (folder / name).write_text('#!/bin/sh\ncase "$2" in "import %s") exit 0 ;; "import "*) exit 1 ;; esac\n'
                                       'echo %s interpreter\n' % (module, name))
            (folder / name).chmod(0o755)
        os.environ["PYTHON"], FALLBACK_PYTHONS[:] = str(folder / "first"), [str(folder / "fallback")]
        other = folder / "other-python"
        other.write_text("#!/bin/sh\nexec %s \"$@\"\n" % shlex.quote(sys.executable))
        other.chmod(0o755)
        args.pythons = [sys.executable, str(other)]
        for name, (want, text, *reason) in SELF_TEST.items():
            (folder / name).write_text(text)
            try:
                got, detail = run_case(folder / name, args)
            except CaseError as e:
                got, detail = "FAIL", str(e)
            ok = got == want and (not reason or reason[0] in detail)
            failures += not ok
            print("%s self-test %s: %s (%s)" % ("ok" if ok else "WRONG", name, got, detail.splitlines()[0]))
    print("self-test: " + ("the runner passes, fails and skips as it should" if not failures else "FAILED"))
    return 1 if failures else 0


def main():
    if "--self-test" in sys.argv[1:]:
        return self_test(argparse.Namespace(mode="simulated", cudaleak="/bin/false", timeout=60, long=False,
                                            root=ROOT))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("simulated", "gpu"), required=True)
    parser.add_argument("--cudaleak", required=True)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("case-output"))
    parser.add_argument("--filter", default="")
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--long", action="store_true", help="also the cases that REQUIRE long (minutes each)")
    parser.add_argument("--pythons", default="", help="interpreters for PYTHONS: all, colon-separated")
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    args.root = ROOT
    args.cudaleak = str(pathlib.Path(args.cudaleak).resolve())
    args.pythons = [p for p in args.pythons.split(":") if p] or [python()]
    cases = cases_in(args.cases, args.filter)
    if not cases:
        print("runner: no case matches", file=sys.stderr)
        return 1
    outcomes = {"PASS": 0, "SKIP": 0, "FAIL": 0}
    for path in cases:
        started = time.monotonic()
        try:
            outcome, detail = run_case(path, args)
        except (CaseError, subprocess.TimeoutExpired) as e:
            outcome, detail = "FAIL", str(e)
        outcomes[outcome] += 1
        took = "" if outcome == "SKIP" else " (%.1f s)" % (time.monotonic() - started)
        print("%s %s%s: %s" % (outcome, path.relative_to(args.root) if args.root in path.parents else path, took,
                               detail), flush=True)
    print("cases: %d passed, %d skipped, %d failed" % (outcomes["PASS"], outcomes["SKIP"], outcomes["FAIL"]))
    if outcomes["FAIL"]:
        return 1
    return SKIPPED if len(cases) == 1 and outcomes["SKIP"] else 0


if __name__ == "__main__":
    sys.exit(main())
