# cudaleak symbolize (and report --symbolize) on a report whose module paths,
# edited by hand, name a FIFO and a device: neither is read (a FIFO with no
# writer would block the read forever, /dev/zero never ends); each is named
# as a module with no file of its build-id, and the report still reads.
# RUN: %run --symbolize false -o %t/raw.json -- %build/samples/sample_pinned_leak_shared
# RUN: mkfifo %t/module.fifo && %python %root/tests/cases/tools/edit_json.py %t/raw.json %t/hostile.json \
# RUN:   'r["modules"] = [{"path": "%t/module.fifo", "base": "0x1000", "build_id": "ab"}, {"path": "/dev/zero", "base": "0x2000", "build_id": "cd"}]'
# RUN: %cudaleak symbolize %t/hostile.json -o %t/out.json
# CHECK: no file with the recorded build-id for %t/module.fifo
# CHECK: no file with the recorded build-id for /dev/zero
# RUN: %report --symbolize %t/hostile.json
# CHECK: SUMMARY: cudaleak: 2.1 MiB leaked in 2 resources
