# samples/pinned_leak: two pinned buffers (2 MiB, 64 KiB), the freed one absent.
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_pinned_leak_shared
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   '[(g["kind"], g["bytes"]) for g in r["leaks"]] == [("pinned", 2 << 20), ("pinned", 64 << 10)]' \
# RUN:   'count("pinned") == 2 and "device" not in summary["by_kind"]'
# CHECK-COUNT(3): holds:
