# log_path stderr and stdout name the streams, not files: the summary goes
# there, and the only files written are the reports.
# RUN: %run --log-path stderr -o r.%p.json -- %build/samples/sample_pinned_leak_shared 2>&1 >/dev/null
# CHECK: SUMMARY: cudaleak:
# RUN: %run --log-path stdout -o r.%p.json -- %build/samples/sample_pinned_leak_shared 2>/dev/null
# CHECK: SUMMARY: cudaleak:
# RUN: ls %t | grep -v '^r\.' | grep -v '^log\.txt$' | wc -l
# CHECK-RE: \A0\n
