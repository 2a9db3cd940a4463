# merge: processes and ranks kept (RANK, OMPI_COMM_WORLD_RANK), totals
# added, each group with its rank; the merged report reads as one.
# RUN: RANK=0 %run -o %t/a.json -- %build/samples/sample_loop_leak_shared && OMPI_COMM_WORLD_RANK=1 %run -o %t/b.json -- %build/samples/sample_pinned_leak_shared
# RUN: mkdir %t/merged && %cudaleak merge %t/a.json %t/b.json -o %t/merged/m.json
# RUN: %expr %t/merged/m.json \
# RUN:   'r["reason"] == "merged" and [p.get("rank", -1) for p in r["processes"]] == [0, 1]' \
# RUN:   'summary["leaked_bytes"] == 819200 + (2 << 20) + (64 << 10)' \
# RUN:   'all(g["rank"] == (1 if g["kind"] == "pinned" else 0) for g in r["leaks"])'
# CHECK-COUNT(3): holds:
# RUN: %report %t/merged/m.json
# CHECK: SUMMARY: cudaleak: 2.8 MiB leaked in 52 resources
