# Leak groups of a report (not held by a handle) whose stack passes through
# an NVIDIA library's object: what a library made and cudaleak told apart
# from the library's handles. Prints each, then "strays: N".
# Usage: library_strays.py REPORT.json...
import json
import re
import sys

library = re.compile(r"/lib(cublasLt|cublas|cufft|cusparse|cusolver|curand|nccl|cudnn)[._]")
strays = 0
for path in sys.argv[1:]:
    report = json.load(open(path))
    for g in report.get("leaks", []):
        if g.get("kind") == "library_handle" or g.get("owner"):
            continue
        hits = [f.get("module", "") for f in g.get("stack", []) if library.search(f.get("module", ""))]
        if hits:
            strays += 1
            print("%s: %s %s bytes x%d created by %s in %s" % (path, g.get("kind"), g.get("bytes", 0), g.get("count", 0),
                                                             g.get("api"), hits[-1].rsplit("/", 1)[-1]))
print("strays: %d" % strays)
