# samples/clean: nothing leaked, no note.
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_clean_shared
# CHECK: no CUDA resources leaked
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   'r["leaks"] == [] and summary["leaked_count"] == 0 and r["notes_total"] == 0'
# CHECK-COUNT(2): holds:
