# SARIF: rules with full description and help and a link into the docs, and
# the invocation with its exit code and arguments.
# RUN(exit=7): %run --error-exitcode 7 --sarif %t/rules.sarif -o %t/r.json -- %build/samples/sample_loop_leak_shared
# RUN: %expr %t/rules.sarif \
# RUN:   'all(rule["id"] == "cudaleak/device-leak" and "the leak gate counts it" in rule["fullDescription"]["text"] and "suppression rule" in rule["help"]["text"] for rule in [r["runs"][0]["tool"]["driver"]["rules"][0]])' \
# RUN:   'all("`cudaleak report --gen-suppressions" in rule["help"]["markdown"] and "/ci.md#suppressions" in rule["helpUri"] for rule in [r["runs"][0]["tool"]["driver"]["rules"][0]])' \
# RUN:   'all(i["exitCode"] == 7 and i["executionSuccessful"] == True and "sample_loop_leak_shared" in i["arguments"][0] for i in [r["runs"][0]["invocations"][0]])'
# CHECK-COUNT(3): holds:
