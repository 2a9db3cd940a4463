# samples/driver_context_leak: a context, memory, memory its context's
# destroy took with it (256 KiB), and the VMM kinds (an allocation, its
# reservation and its mapping).
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_driver_context_leak_shared
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   'sum(g["count"] for g in leaks("context")) == 1' \
# RUN:   '[(g["released_by"], g["bytes"], g["api"]) for g in r["leaks"] if g.get("released_by")] == [("context_destroy", 256 << 10, "cuMemAlloc_v2")]' \
# RUN:   'group("device") is not None and size("device") == (3 << 20) + (256 << 10)' \
# RUN:   'size("vmm") == 4 << 20 and count("vmm") == 1 and count("va_reservation") == 1 and count("mapping") == 1' \
# RUN:   'any(stack_has(g, "vmm_buffer") for g in leaks("vmm"))'
# CHECK-COUNT(6): holds:
