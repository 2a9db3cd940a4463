# samples/library_leak: the stack names the library function
# (leaky_library_workspace in libleaky_library.so) that leaked 4 MiB.
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_library_leak_shared
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   '[g["bytes"] for g in leaks("device") if stack_has(g, "leaky_library_workspace")][:1] == [4 << 20]' \
# RUN:   'any(f.get("function") == "leaky_library_workspace" and "libleaky_library.so" in f.get("module", "") for g in leaks("device") if stack_has(g, "leaky_library_workspace") for f in g["stack"])'
# CHECK-COUNT(3): holds:
