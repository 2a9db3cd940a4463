#!/usr/bin/env python3
"""The source tree's folders are floors, each including only itself and the
floors below it (FLOORS). Every include of the project's own headers is
written from the repository root ("common/kinds.h", "report/model/report.h"),
so a folder's dependencies can be read off its includes.

    common                              kinds, enum names, options, words, colour,
                                        private loading, safe output; common/record:
                                        what recording fills (Record, the raw snapshot,
                                        frames, the timeline), under both halves
    report/io < report/model            reading files; the report's schema
    report/symbols, report/gate         symbolization; suppression, baseline, verdict
    report/oom, report/analyze          out-of-memory diagnosis (causes as data); filters, aggregates, diffs
    report/render                       every sentence: text, out-of-memory causes, diff, HTML, JUnit, SARIF
    report/capture                      report::assemble: a capture into a report
    report/write                        the preload's one entry: assemble, symbolize,
                                        render, write
    report/cli                          the cudaleak command
    interpose/base < driver < pyframes < track < runtime < hooks
                                        the preload library; it records into
                                        track/ on the floor common/record, and
                                        hands a capture to report/write from
                                        runtime/

interpose/ includes of report/ only the headers of REPORT_FOR_INTERPOSE,
each from the files it names, for the reason it gives: the entry, the
schema a capture carries, and what the runtime does in process before any
report (an out-of-memory told when it happens, the gate's files read at
start-up). Nothing of render/ or the symbolizer: those are behind the entry.

interpose/include holds the public headers a program includes by their own
names (cudaleak_gtest.h includes "cudaleak.h" beside it).

Inside a folder, files form no include cycle: a file's .h and .cpp are one
unit (what the .cpp includes, the unit depends on), and no unit may depend on
itself through others. A cycle is broken by moving what both sides need to a
header of its own (a small type, a declaration), never by a forward
declaration that hides the dependency.

Prints every include that points up or sideways, every project header
included by a name not written from the root, and every include cycle, and
exits 1 when there is one. `--self-test` plants an upward include, a relative
one and a cycle in a copy of the tree and fails unless the check finds each."""
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

REPORT_BELOW_CAPTURE = ["report/io", "report/model", "report/symbols", "report/gate", "report/oom"]
FLOORS = {
    "common": [],
    "report/io": ["common"],
    "report/model": ["common", "report/io"],
    "report/symbols": ["common", "report/io", "report/model"],
    "report/gate": ["common", "report/io", "report/model"],
    "report/oom": ["common", "report/io", "report/model", "report/gate"],
    "report/analyze": ["common", "report/io", "report/model", "report/gate"],
    "report/render": REPORT_BELOW_CAPTURE + ["common", "report/analyze"],
    "report/capture": REPORT_BELOW_CAPTURE + ["common"],
    "report/write": REPORT_BELOW_CAPTURE + ["common", "report/analyze", "report/render", "report/capture"],
    "report/cli": REPORT_BELOW_CAPTURE + ["common", "report/analyze", "report/render", "report/capture"],
    "report/compat": [],
    "interpose/include": [],
    "interpose/device": [],
    "interpose/base": ["common"],
    "interpose/driver": ["common", "interpose/base"],
    "interpose/pyframes": ["common", "interpose/base", "interpose/driver"],
    "interpose/track": ["common", "interpose/base", "interpose/driver", "interpose/pyframes"],
    "interpose/runtime": ["common", "interpose/include", "interpose/device", "interpose/base", "interpose/driver",
                          "interpose/pyframes", "interpose/track"],
    "interpose/hooks": ["common", "interpose/base", "interpose/driver", "interpose/pyframes", "interpose/track",
                        "interpose/runtime"],
}
# What interpose/ may include of report/: header -> (the units that may, why).
# The list only shrinks: what the runtime still does itself moves behind the
# entry (report/write) over time.
REPORT_FOR_INTERPOSE = {
    "report/write/in_process.h": ({"interpose/runtime/reporter", "interpose/runtime/budgets",
                                   "interpose/runtime/live_server", "interpose/runtime/line_growth"},
                                  "the entry: a capture assembled, symbolized, rendered and written; a framework's "
                                  "line named and judged as sites are"),
    "report/write/oom_in_process.h": ({"interpose/runtime/oom", "interpose/runtime/oom_monitor"},
                                      "the entry of an out-of-memory, told when it happens, before the program "
                                      "reacts: what the report's rules decide at the failure (the allocator that "
                                      "failed, the held calls it ends, PyTorch's blocks by owner) and, at a report, "
                                      "the event resolved, diagnosed and said"),
    "report/model/report.h": ({"interpose/runtime/reporter", "interpose/runtime/growth", "interpose/runtime/line_growth",
                               "interpose/runtime/marks", "interpose/runtime/nvml", "interpose/runtime/oom_monitor",
                               "interpose/runtime/python_view"},
                              "the schema a Capture carries beside the snapshot: out-of-memory events measured at "
                              "the failure, the frameworks' views, marks, the growth of earlier reports"),
    "report/model/json_io.h": ({"interpose/runtime/python_view_entries"},
                               "the frameworks' views arrive from the program's Python as JSON, read by the "
                               "report's own field lists"),
    "report/model/report_path.h": ({"interpose/runtime/crash_capture"},
                                   "a crash capture names its file in the signal handler as reports are named"),
    "report/symbols/launcher_env.h": ({"interpose/runtime/crash_capture", "interpose/runtime/launcher_files",
                                       "interpose/runtime/nvml"},
                                      "the process's place in a job, read from its environment"),
    "report/symbols/device_lines.h": ({"interpose/runtime/device_heap"},
                                      "a cubin's line table read at its load, to name a kernel's malloc line"),
    "report/gate/gate.h": ({"interpose/runtime/gate_config"},
                           "the gate's suppressions and baseline read once at start-up, not at exit"),
    "report/gate/gate_options.h": ({"interpose/runtime/gate_config"}, "as gate.h"),
}
SOURCES = (".h", ".cpp", ".S", ".def", ".in")
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Cycles known when the check learned files, each to be broken, not added to
# (the last, growth_text and text_report, was broken by render/stack_text):
# the check fails when one of them is gone too, so that the list only shrinks.
KNOWN_CYCLES: set[tuple[str, ...]] = set()


def floor_of(relative: pathlib.PurePath) -> str:
    parts = relative.parts
    return parts[0] if parts[0] == "common" else "/".join(parts[:2])


def unit_of(relative: pathlib.PurePath) -> str:
    """A file's .h and .cpp are one unit: its path without the suffix."""
    return str(relative.with_suffix(""))


def cycles(edges: dict[str, dict[str, list[str]]]) -> list[list[str]]:
    """The units that depend on each other (strongly connected, more than one),
    each sorted, by Tarjan's algorithm without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            unit, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, {})))))
                elif target in on_stack:
                    low[unit] = min(low[unit], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[unit])
            if low[unit] == index[unit]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == unit:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def cycle_problems(edges: dict[str, dict[str, list[str]]]) -> list[str]:
    problems = []
    seen = set()
    for component in cycles(edges):
        members = set(component)
        if tuple(component) in KNOWN_CYCLES:
            seen.add(tuple(component))
            continue
        how = "; ".join(f"{', '.join(files)} includes {target}"
                        for unit in component for target, files in sorted(edges[unit].items()) if target in members)
        problems.append(f"include cycle between {', '.join(component)}: {how}")
    for gone in sorted(KNOWN_CYCLES - seen):
        problems.append(f"the known include cycle between {', '.join(gone)} is gone: "
                        "take it out of KNOWN_CYCLES in tests/layers/check_layers.py")
    return problems


def check(root: pathlib.Path) -> list[str]:
    problems = []
    edges: dict[str, dict[str, list[str]]] = {}  # unit -> unit it includes -> the files that do
    reads_used = set()  # (report header, interpose unit) of REPORT_FOR_INTERPOSE met
    for top in ("common", "report", "interpose"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            relative = path.relative_to(root)
            floor = floor_of(relative)
            unit = edges.setdefault(unit_of(relative), {})
            if floor not in FLOORS:
                problems.append(f"{relative}: folder {floor} has no place in tests/layers/check_layers.py")
                continue
            for name in include.findall(path.read_text(errors="replace")):
                target = root / name
                if not target.is_file():
                    if (path.parent / name).is_file() and floor != "interpose/include":
                        problems.append(f"{relative}: includes {name} by a relative name; write it from the root")
                    continue  # generated (html_assets.h), the CUDA toolkit or a system library
                other = floor_of(pathlib.PurePath(name))
                if floor.startswith("interpose/") and other.startswith("report/"):
                    users, _ = REPORT_FOR_INTERPOSE.get(name, (set(), ""))
                    reads_used.add((name, unit_of(relative)))
                    if unit_of(relative) not in users:
                        problems.append(f"{relative}: includes {name} (interpose/ includes of report/ only "
                                        "REPORT_FOR_INTERPOSE, each from the files it names)")
                elif other != floor and other not in FLOORS[floor]:
                    problems.append(f"{relative}: includes {name} ({other} is not below {floor})")
                target_unit = unit_of(pathlib.PurePath(name))
                if target_unit != unit_of(relative) and str(relative) not in unit.setdefault(target_unit, []):
                    unit[target_unit].append(str(relative))
    for name, (users, _) in sorted(REPORT_FOR_INTERPOSE.items()):
        for user in sorted(users - {u for n, u in reads_used if n == name}):
            problems.append(f"{user} no longer includes {name}: take it out of REPORT_FOR_INTERPOSE in "
                            "tests/layers/check_layers.py")
    return problems + cycle_problems(edges)


def self_test(root: pathlib.Path) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        copy = pathlib.Path(scratch)
        for top in ("common", "report", "interpose"):
            shutil.copytree(root / top, copy / top, ignore=shutil.ignore_patterns("*.js", "*.css", "*.html", "*.py"))
        planted = copy / "report/model/report.h"
        planted.write_text(planted.read_text() + '\n#include "report/render/text_report.h"\n')
        # The preload reaching past the entry to a renderer.
        reporter = copy / "interpose/runtime/reporter.cpp"
        reporter.write_text(reporter.read_text() + '\n#include "report/render/text_report.h"\n')
        # oom/ decides the causes and render/ says them: never the other way.
        deciding = copy / "report/oom/diagnose.cpp"
        deciding.write_text(deciding.read_text() + '\n#include "report/render/cause_words.h"\n')
        relative = copy / "common/kinds.cpp"
        relative.write_text(relative.read_text() + '\n#include "kinds.h"\n')
        # A cycle of two units of one folder, each through its .cpp.
        for source, target in (("common/tty_color.cpp", "common/terminal_text.h"),
                               ("common/terminal_text.cpp", "common/tty_color.h")):
            (copy / source).write_text((copy / source).read_text() + f'\n#include "{target}"\n')
        found = check(copy)
        wanted = ["report/model/report.h: includes report/render/text_report.h", "common/kinds.cpp: includes kinds.h",
                  "interpose/runtime/reporter.cpp: includes report/render/text_report.h",
                  "report/oom/diagnose.cpp: includes report/render/cause_words.h",
                  "include cycle between common/terminal_text, common/tty_color: "]
        missing = [w for w in wanted if not any(p.startswith(w) for p in found)]
        for w in missing:
            print(f"self-test: the check missed '{w}'")
        print("self-test: " + ("the check found the planted includes and cycle" if not missing else "FAILED"))
        return 1 if missing else 0


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parents[2]).resolve()
    if "--self-test" in sys.argv[1:]:
        return self_test(root)
    problems = check(root)
    for p in problems:
        print(p)
    print(f"layers: {len(problems)} includes out of place or in a cycle" if problems
          else "layers: every include points down, and no files include each other")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
