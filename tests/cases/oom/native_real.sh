# Out-of-memory forensics on a real GPU (tests/e2e/programs/oom_scenarios):
# a leak growing by 4 GiB a step until memory runs out is an accumulating
# leak; another process holding 3/4 of the device when this one asks for
# 1/3 of it is named as the cause; a request larger than the device says so.
# The first cause of the first out-of-memory of each.
# REQUIRES: gpu
# RUN(exit=1): %run -o %t/leak/r.%p.%n.json -- %build/tests/e2e/oom_scenarios leak 4096
# RUN: total=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0); %build/tests/e2e/oom_scenarios hold $((total * 3 / 4)) 60 > %t/holder.out 2>&1 & H=$!; for i in $(seq 100); do grep -q holding %t/holder.out 2> /dev/null && break; sleep 0.2; done; %run -o %t/other/r.%p.%n.json -- %build/tests/e2e/oom_scenarios single $((total / 3)); echo "status $?"; kill $H; wait $H 2> /dev/null; true
# RUN(exit=1): total=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0); %run -o %t/large/r.%p.%n.json -- %build/tests/e2e/oom_scenarios single $((total * 3))
# RUN: %expr %t/leak '[e["diagnosis"][0]["cause"] for x in reports for e in x.get("oom_events", []) if e.get("diagnosis")][:1] == ["accumulating_leak"]'
# CHECK: holds:
# RUN: %expr %t/other '[e["diagnosis"][0]["cause"] for x in reports for e in x.get("oom_events", []) if e.get("diagnosis")][:1] == ["other_processes"]'
# CHECK: holds:
# RUN: %expr %t/large '[e["diagnosis"][0]["cause"] for x in reports for e in x.get("oom_events", []) if e.get("diagnosis")][:1] == ["request_too_large"]'
# CHECK: holds:
