# A GitLab code-quality report of the leaks: one issue at the leak's line,
# with a 16-character fingerprint that the same site gives again when the
# report is read back (GitLab compares them).
# RUN: %run --annotations gitlab --annotations-output %t/gl.json -o %t/r.json -- %build/samples/sample_loop_leak_shared
# RUN: %expr %t/gl.json \
# RUN:   'len(r) == 1 and r[0]["check_name"] == "cudaleak/device-leak" and r[0]["severity"] == "major"' \
# RUN:   'r[0]["location"]["lines"]["begin"] == 8 and "samples/loop_leak.cu" in r[0]["location"]["path"] and len(r[0]["fingerprint"]) == 16'
# CHECK-COUNT(2): holds:
# RUN: %report --annotations gitlab %t/r.json > %t/again.json && %expr %t/gl.json 'r[0]["fingerprint"] in text("%t/again.json") and text("%t/again.json").count("fingerprint") == 1'
# CHECK: holds:
