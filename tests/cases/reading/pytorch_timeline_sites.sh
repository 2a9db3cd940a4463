# PyTorch on the HTML page's timeline, on a real GPU with --pytorch-stacks
# true (tests/gpu/python/scenario_leak_in_list.py): the out-of-memory event
# carries PyTorch's cache view, and the biggest site on the timeline is a
# line of the script.
# REQUIRES: gpu, torch
# RUN: %run --pytorch-stacks true -o %t/r.%n.json -- %python %root/tests/gpu/python/scenario_leak_in_list.py
# CHECK: oom after
# RUN: %expr %t \
# RUN:   'any(e.get("pytorch") for e in reports[-1].get("oom_events", []))' \
# RUN:   'any(f.get("language") == "python" and f.get("file", "").endswith("scenario_leak_in_list.py") for f in max(reports[-1]["timeline"]["devices"][0].get("sites", []), key=lambda s: s["peak_bytes"], default={"stack": []})["stack"])'
# CHECK-COUNT(2): holds:
