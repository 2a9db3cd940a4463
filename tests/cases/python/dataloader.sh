# A DataLoader with forking workers while the main process keeps every
# batch on the device (tests/gpu/python/scenario_dataloader.py): no hang,
# and at exit PyTorch's view names the 24 kept tensors at train's line.
# (About 13 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_dataloader.py
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_dataloader.py
# CHECK: epochs done, batches kept: 24
# RUN: %expr %t \
# RUN:   '[(g["count"], any(f.get("line") == %line:keep for f in g["stack"])) for g in last_report().get("pytorch", {"devices": [{"live_tensors": []}]})["devices"][0]["live_tensors"][:1]] == [(24, True)]'
# CHECK: holds:
