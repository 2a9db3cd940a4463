# gate_live_tensors fails the gate on the tensors PyTorch holds at exit
# (tests/e2e/programs/fake_torch: one 1 MiB tensor): not counted by default;
# counted with the option, also when the program leaves by os._exit (the
# view is sent all the same); tensors are device memory, so a gate on other
# kinds leaves them out.
# Simulated only: fake_torch's allocator and snapshot.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# RUN: %run --error-exitcode 7 -o %t/plain/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch.py
# CHECK: trained
# RUN: %expr %t/plain 'len(reports) == 1 and not r["gate"].get("failed", False)'
# CHECK: holds:
# RUN(exit=7): %run --error-exitcode 7 --gate-live-tensors true -o %t/gated/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch.py
# CHECK: (counted by the gate: gate_live_tensors)
# CHECK: 1 of them PyTorch's live tensors
# RUN: %expr %t/gated \
# RUN:   'len(reports) == 1 and r["gate"]["failed"] is True' \
# RUN:   'r["gate"]["failing_tensor_groups"] == 1 and r["gate"]["failing_bytes"] == 1 << 20'
# CHECK-COUNT(2): holds:
# RUN(exit=7): %run --error-exitcode 7 --gate-live-tensors true -o %t/os_exit/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch.py os_exit 2> %t/os_exit.err
# CHECK-RE: \Atrained\n\Z
# RUN: %expr %t/os_exit 'len(reports) == 1 and r["reason"] == "exit" and r["gate"]["failing_tensor_groups"] == 1'
# CHECK: holds:
# RUN: %run --error-exitcode 7 --gate-live-tensors true --fail-on pinned -o %t/pinned/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch.py
# CHECK: trained
