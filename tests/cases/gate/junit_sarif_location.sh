# JUnit and SARIF of a gated run: one test case that fails for the one leak
# group, and one SARIF result located at the leaking line of the program's
# source (loop_leak.cu:8), not in the runtime.
# RUN(exit=7): %run --error-exitcode 7 --junit %t/j.xml --sarif %t/s.sarif --source-root %root -o %t/r.%p.json -- %build/samples/sample_loop_leak_shared
# RUN: %python -c 'import sys, xml.etree.ElementTree as ET; root = ET.parse(sys.argv[1]).getroot(); print("JUnit tests", root.get("tests"), "failures", root.get("failures"))' %t/j.xml
# CHECK: JUnit tests 1 failures 1
# RUN: %expr %t/s.sarif \
# RUN:   '[(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].split("/")[-1], x["locations"][0]["physicalLocation"]["region"]["startLine"]) for x in r["runs"][0]["results"]] == [("loop_leak.cu", 8)]'
# CHECK: holds:
