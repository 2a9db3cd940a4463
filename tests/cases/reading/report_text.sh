# cudaleak report on one report of samples/driver_context_leak: text as
# LeakSanitizer writes it (one process read back speaks as its run did:
# ==PID==, no process named per group), --top cuts the groups (no "more"
# line) and, with --by, the rows after every group is counted in them;
# --kind, --function and --device filter; a negative --min-bytes or --top is
# refused (it would wrap to the largest value); HTML is one self-contained
# page whose data no name can leave early (a report edited by hand names a
# function that would end the data's <script> element or open a comment).
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_driver_context_leak_shared
# RUN: %report %t/reports/*.json > %t/text.txt && cat %t/text.txt
# CHECK-RE: \A==\d+==cudaleak: detected CUDA resource leaks
# CHECK: 4.0 MiB of vmm memory in 1 allocation never freed, created by cuMemCreate
# CHECK: SUMMARY: cudaleak: 7.2 MiB leaked in 6 resources
# CHECK-NONE: (pid
# RUN: %expr %t/reports 'len(reports) == 1' \
# RUN:   'text("%t/text.txt").startswith("==" + str(r["process"]["pid"]) + "==cudaleak: detected CUDA resource leaks")' \
# RUN:   '"(pid " + str(r["process"]["pid"]) + ")" not in text("%t/text.txt")'
# CHECK-COUNT(3): holds:
# RUN: %report %t/reports/*.json --top 1
# CHECK: 4.0 MiB of vmm memory in 1 allocation never freed
# CHECK-COUNT(1): never freed, created by
# CHECK-NONE: never destroyed
# CHECK-NONE: more leak group
# CHECK: SUMMARY: cudaleak: 7.2 MiB leaked in 6 resources
# RUN: %report %t/reports/*.json --kind device --format json > %t/device.json
# RUN: %expr %t/device.json 'len(r["leaks"]) == 2' 'summary["leaked_bytes"] == (3 << 20) + (256 << 10)'
# CHECK-COUNT(2): holds:
# RUN: %report %t/reports/*.json --by function
# CHECK: 4.0 MiB          3       3  vmm,va_reservation,mapping vmm_buffer
# RUN(exit=2): %report %t/reports/*.json --min-bytes -1 2>&1 >/dev/null
# CHECK-RE: \Acudaleak report: --min-bytes: expected a number of bytes \(from 0\), got '-1'; see cudaleak report --help\n\Z
# RUN(exit=2): %report %t/reports/*.json --top -1 2>&1 >/dev/null
# CHECK-RE: \Acudaleak report: --top: expected a count \(from 0\), got '-1'; see cudaleak report --help\n\Z
# RUN: %report %t/reports/*.json --by function --top 1
# CHECK: 4.0 MiB          3       3  vmm,va_reservation,mapping vmm_buffer
# CHECK-NONE:  main
# RUN: %report %t/reports/*.json --by kind --top 2
# CHECK: 3.2 MiB          2       2  device
# RUN: %report %t/reports/*.json --function 'vmm_*' --format json > %t/vmm.json
# RUN: %expr %t/vmm.json 'len(r["leaks"]) == 3'
# CHECK: holds:
# RUN: %report %t/reports/*.json --device 1 --format json > %t/device1.json
# RUN: %expr %t/device1.json 'r["leaks"] == []'
# CHECK: holds:
# RUN: %report %t/reports/*.json --format html -o %t/r.html && cat %t/r.html
# CHECK: <script id="cudaleak-data" type="application/json">{
# CHECK-NONE: src="http
# CHECK-NONE: href="http
# CHECK-NONE: <link
# CHECK-NONE: import(
# CHECK-NONE: fetch(
# RUN: %python %root/tests/cases/tools/edit_json.py %t/reports/*.json %t/hostile.json \
# RUN:   'r["leaks"][0]["stack"][0]["function"] = "f</script><!--<script>x"'
# RUN: %report %t/hostile.json --format html -o %t/hostile.html && %python %root/tests/cases/tools/html_data.py %t/hostile.html %t/data.json
# RUN: %expr %t/data.json '"<" not in text("%t/data.json")' \
# RUN:   'r["leaks"][0]["stack"][0]["function"] == "f</script><!--<script>x"'
# CHECK-COUNT(2): holds:
