# samples/exception_leak.cu: the buffer of the failing batch is the one leak
# (process_batch inlined into main, expanded from DWARF, with the line of its
# cudaMalloc), and the program's exit status 3 is kept. Its report is an exit
# report, symbolized, with its modules.
# RUN(exit=3): %run -o %t/reports/r.%p.json -- %build/samples/sample_exception_leak_shared
# CHECK-RE: \Aerror: batch 2: corrupt input\n
# CHECK: SUMMARY: cudaleak: 1.0 MiB leaked in 1 resource
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   'len(r["leaks"]) == 1 and [(g["kind"], g["api"], g["bytes"], g["count"], g["device"]) for g in r["leaks"]] == [("device", "cudaMalloc", 1 << 20, 1, 0)]' \
# RUN:   'stack_has(r["leaks"][0], "process_batch") and stack_has(r["leaks"][0], "main")' \
# RUN:   'any(f.get("function") == "process_batch" and "exception_leak.cu" in f.get("file", "") and f.get("line") == 10 for f in r["leaks"][0]["stack"])' \
# RUN:   'summary["leaked_bytes"] == 1 << 20 and r["process"]["pid"] > 0 and r["process"]["argv"][0].endswith("/samples/sample_exception_leak_shared")'
# CHECK-COUNT(5): holds:
