#!/usr/bin/env python3
"""The preload library's folders are layers, each including only those below:
    base < driver < pyframes < track < runtime < hooks
(base: options and lifecycle state, logging, the real dlsym, the library's own
code range; driver: the table of hooked entry points and the real functions
behind them; pyframes: reading Python frames; track: records and stacks;
runtime: reports, signals, fork, out-of-memory; hooks: the exported entry
points). config/ and include/ sit beside them, usable by all. Prints every
include that points up or sideways and exits 1 when there is one."""
import pathlib
import re
import sys

ORDER = ["base", "driver", "pyframes", "track", "runtime", "hooks"]
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2]) / "interpose"
include = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
problems = []
for layer in ORDER:
    for path in sorted((root / layer).glob("*")):
        if path.suffix not in (".h", ".cpp", ".S"):
            continue
        for name in include.findall(path.read_text()):
            target = (path.parent / name).resolve()
            if not target.exists():
                continue  # a header of report/, the CUDA toolkit or a system library
            try:
                other = target.relative_to(root.resolve()).parts[0]
            except ValueError:
                continue
            if other in ORDER and ORDER.index(other) > ORDER.index(layer):
                problems.append(f"{path.relative_to(root.parent)}: includes {name} ({other} is above {layer})")
for p in problems:
    print(p)
print(f"layers: {len(problems)} includes pointing up" if problems else "layers: every include points down")
sys.exit(1 if problems else 0)
