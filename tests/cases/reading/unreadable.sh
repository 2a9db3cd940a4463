# cudaleak report on a file it cannot read, one truncated, another
# program's JSON, a newer format, or values of the wrong type or range (a
# report of samples/clean edited by hand): status 2, nothing on stdout and
# one line on stderr that says why (naming the JSON path of a bad value).
# A directory is a job's folder of reports (reading/several_reports.sh); one
# with none is refused.
# RUN: %run -o %t/good.json -- %build/samples/sample_clean_shared
# RUN: mkdir %t/empty; : > %t/empty.json; head -c $(( $(wc -c < %t/good.json) / 2 )) %t/good.json > %t/truncated.json
# RUN: echo '{"name": "not ours"}' > %t/other.json; echo '{"format": "cudaleak-report", "format_version": 7}' > %t/newer.json
# RUN: echo '{"format": "cudaleak-report", "format_version": "1"}' > %t/version_string.json
# RUN(exit=2): %report %t/missing.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): cannot read the report
# RUN(exit=2): %report %t/empty
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): no cudaleak reports in this directory
# RUN(exit=2): %report /dev/zero
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): not a regular file
# RUN(exit=2): %report %t/truncated.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): not valid JSON (truncated or corrupt?)
# RUN(exit=2): %report %t/other.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): not a cudaleak report
# RUN(exit=2): %report %t/newer.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): newer than this cudaleak reads
# RUN(exit=2): %report %t/empty.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): not valid JSON
# RUN(exit=2): %report %t/version_string.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): no valid format_version
#
# Values of the wrong type or range: the error names the JSON path.
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/negative.json 'r["summary"]["leaked_bytes"] = -1'
# RUN(exit=2): %report %t/negative.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): malformed report: $.summary.leaked_bytes: must not be negative, got -1
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/pid_string.json 'r["process"]["pid"] = "12"'
# RUN(exit=2): %report %t/pid_string.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): $.process.pid: expected an integer, got a string "12"
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/kind.json 'r["leaks"] = [{"kind": "devic", "bytes": 1, "count": 1}]'
# RUN(exit=2): %report %t/kind.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): $.leaks[0].kind: unknown kind "devic"
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/address.json \
# RUN:   'r["leaks"] = [{"kind": "device", "bytes": 1, "count": 1, "allocations": [{"address": "zz", "bytes": 1}]}]'
# RUN(exit=2): %report %t/address.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): $.leaks[0].allocations[0].address: expected a hex address
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/long_hex.json \
# RUN:   'r["leaks"] = [{"kind": "device", "bytes": 1, "count": 1, "allocations": [{"address": "0x11112222333344445", "bytes": 1}]}]'
# RUN(exit=2): %report %t/long_hex.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): $.leaks[0].allocations[0].address: expected a hex address of 1 to 16 digits
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/missing_bytes.json 'r["leaks"] = [{"kind": "device", "count": 1}]'
# RUN(exit=2): %report %t/missing_bytes.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): $.leaks[0].bytes: is missing
# RUN: %python %root/tests/cases/tools/edit_json.py %t/good.json %t/device_range.json \
# RUN:   'r["leaks"] = [{"kind": "device", "bytes": 1, "count": 1, "device": 4294967296}]'
# RUN(exit=2): %report %t/device_range.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): $.leaks[0].device: is out of range
# RUN: sed -E 's/"duration_ns": *[0-9]+/"duration_ns": 1e999/' %t/good.json > %t/huge.json && grep -q '"duration_ns": 1e999' %t/huge.json && echo edited
# CHECK: edited
# RUN(exit=2): %report %t/huge.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): not valid JSON (truncated or corrupt?): number overflow parsing '1e999'
# RUN: sed -E "s/\"duration_ns\": *[0-9]+/\"duration_ns\": 1$(printf '%%0400d' 0)/" %t/good.json > %t/big_integer.json && grep -q '"duration_ns": 10\{400\}[^0-9]' %t/big_integer.json && echo edited
# CHECK: edited
# RUN(exit=2): %report %t/big_integer.json
# CHECK-RE: \Acudaleak: [^\n]*\n\Z
# CHECK-COUNT(1): number overflow parsing
