# samples/stream_event_leak: half the streams and events, no bytes.
# RUN: %run -o %t/reports/r.%p.json -- %build/samples/sample_stream_event_leak_shared
# RUN: %expr %t/reports \
# RUN:   'len(reports) == 1 and all(x["format"] == "cudaleak-report" and x["format_version"] == 2 and x["reason"] == "exit" and x["symbolized"] and x["modules"] != [] for x in reports)' \
# RUN:   '(group("stream")["count"], group("stream")["api"]) == (2, "cudaStreamCreateWithFlags")' \
# RUN:   '(group("event")["count"], group("event")["api"]) == (2, "cudaEventCreateWithFlags")' \
# RUN:   'summary["leaked_bytes"] == 0 and summary["leaked_count"] == 4'
# CHECK-COUNT(4): holds:
