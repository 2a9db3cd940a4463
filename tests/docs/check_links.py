"""Checks that what points into the docs still lands: every relative link of
README.md and docs/ (files and #anchors), and every `docs/NAME.md#anchor`
or `NAME.md#anchor` written in the code, the scripts and the tests (comments
and messages that send a reader to a section). An anchor is a heading's
GitHub slug. Also that every `tests/fixtures/...` and
`docs/archive/gpu-sessions/...` path the docs name in code (a file, a folder
or a pattern) is there, and that the README's index lists every doc and its layout
table every folder (top level, and the second level of interpose/, report/
and tests/). Exits non-zero and names each broken one.

    python3 check_links.py SOURCE_DIR
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]).resolve()
docs = root / "docs"
broken = []


def headings(md):
    """The anchors GitHub makes for a Markdown file's headings."""
    slugs, seen, fenced = set(), {}, False
    for line in md.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        m = None if fenced else re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", m.group(1))  # a link's words only
        slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        slugs.add(slug if n == 0 else f"{slug}-{n}")
    return slugs


anchor_cache = {}


def anchors(md):
    if md not in anchor_cache:
        anchor_cache[md] = headings(md)
    return anchor_cache[md]


def check(where, target, base):
    path, _, anchor = target.partition("#")
    dest = (base / path).resolve() if path else where
    if not dest.exists():
        broken.append(f"{where.relative_to(root)}: {target}: no such file")
    elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
        broken.append(f"{where.relative_to(root)}: {target}: no heading with that anchor")


markdown = [root / "README.md"] + sorted(docs.rglob("*.md"))
links = 0
for md in markdown:
    text = re.sub(r"```.*?```", "", md.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        links += 1
        check(md, target, md.parent)
    # Raw output named in code spans from the repository's root: the reports
    # tests read (tests/fixtures/) and the GPU sessions' transcripts
    # (docs/archive/gpu-sessions/). Each path, or pattern, names something.
    for target in re.findall(r"`((?:tests/fixtures|docs/archive/gpu-sessions)/[^`\s]*)`", text):
        links += 1
        if not any(root.glob(target.rstrip("/"))):
            broken.append(f"{md.relative_to(root)}: {target}: no such file")

# Sections named from outside the docs: `docs/usage.md#children`, or
# `usage.md#stacks` in a file that already says it means the docs.
sources = [p for top in ("interpose", "report", "common", "scripts", "tests", "samples", "cmake")
           for p in (root / top).rglob("*")
           if p.is_file() and "fixtures" not in p.parts and "node_modules" not in p.parts
           and p.suffix in {".h", ".cpp", ".cu", ".c", ".py", ".sh", ".cmake", ".txt", ".mjs", ".js"}]
sources.append(root / "CMakeLists.txt")
for src in sources:
    for name, anchor in re.findall(r"(?:docs/)?([A-Za-z0-9_-]+\.md)#([A-Za-z0-9_-]+)",
                                   src.read_text(encoding="utf-8", errors="replace")):
        if (docs / name).exists():
            links += 1
            check(src, f"{name}#{anchor}", docs)

# The README's index names every doc, and its layout table every folder of
# the tree and of interpose/, report/ and tests/.
readme = (root / "README.md").read_text(encoding="utf-8")
layout = readme[readme.index("## Layout"):]
for md in sorted(docs.rglob("*.md")):
    links += 1
    if f"]({md.relative_to(root)})" not in readme:
        broken.append(f"README.md: the documentation index does not list {md.relative_to(root)}")
tracked = {pathlib.PurePosixPath(line) for line in
           __import__("subprocess").run(["git", "-C", str(root), "ls-files"], capture_output=True,
                                        text=True).stdout.splitlines()}
folders = {f.parts[0] for f in tracked if len(f.parts) > 1}
for top in ("interpose", "report", "tests"):
    folders |= {f"{top}/{f.parts[1]}" for f in tracked if len(f.parts) > 2 and f.parts[0] == top}
for folder in sorted(folders):
    links += 1
    name = folder.split("/")[-1]
    if f"`{folder}/`" not in layout and ("/" not in folder or f"`{name}/`" not in layout):
        broken.append(f"README.md: the layout table does not name {folder}/")

for b in broken:
    print("broken: " + b)
print(f"{links} links checked, {len(broken)} broken")
sys.exit(1 if broken else 0)
