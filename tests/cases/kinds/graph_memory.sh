# Graph memory lives on after instantiation and dies with a graph that never
# ran: the allocation node of the instantiated graph and the allocation made
# during capture (tagged with the graph it belongs to), not the node of the
# graph destroyed uninstantiated.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/every_kind leak
# CHECK: SUMMARY: cudaleak:
# RUN: %expr %t/r.json \
# RUN:   'count("graph_memory") == 2' \
# RUN:   'group("graph_memory", "cuGraphAddMemAllocNode")["bytes"] == 1 << 20' \
# RUN:   'group("graph_memory", "cuMemAllocAsync")["bytes"] == 64 << 10' \
# RUN:   'int(group("graph_memory", "cuMemAllocAsync")["allocations"][0].get("stream", "0"), 16) != 0' \
# RUN:   'count("async") == 0 and r["notes"] == []'
# CHECK-COUNT(5): holds:
