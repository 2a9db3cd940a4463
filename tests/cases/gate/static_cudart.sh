# The CI gate on a real GPU with the samples built with nvcc's default static
# cudart (the runtime calls the driver itself): a leaking run fails with
# error_exitcode, a clean one passes, --fail-on device lets streams and
# events through; a baseline of 50 steps passes 40 and fails 60 as grown; a
# shell that exits 0 after a leaking child still fails; JUnit and SARIF
# name the leak at loop_leak.cu:8; 200,001 suppression rules (the last one
# loop_leak's) are compiled once by the launcher and mapped by the process,
# parsed by the process itself under plain LD_PRELOAD, and hide the leak
# both ways.
# REQUIRES: gpu
# RUN(exit=23): %run --error-exitcode 23 -o %t/a.%p.json -- %build/samples/sample_loop_leak
# RUN: %run --error-exitcode 23 -o %t/b.%p.json -- %build/samples/sample_clean
# RUN: %run --error-exitcode 23 --fail-on device -o %t/c.%p.json -- %build/samples/sample_stream_event_leak
# RUN: %cudaleak baseline %t/a.*.json -o %t/base.json
# RUN: %run --error-exitcode 23 --baseline %t/base.json -o %t/d.%p.json -- %build/samples/sample_loop_leak 40
# RUN(exit=23): %run --error-exitcode 23 --baseline %t/base.json -o %t/e.%p.json -- %build/samples/sample_loop_leak 60
# CHECK: grown beyond the baseline
# RUN(exit=23): %run --error-exitcode 23 -o %t/ch.%p.json -- /bin/sh -c '%build/samples/sample_loop_leak > /dev/null 2>&1; exit 0'
# RUN(exit=7): %run --error-exitcode 7 --junit %t/j.xml --sarif %t/s.sarif --source-root %root -o %t/js.%p.json -- %build/samples/sample_loop_leak
# RUN: %python -c 'import sys, xml.etree.ElementTree as ET; root = ET.parse(sys.argv[1]).getroot(); print("JUnit tests", root.get("tests"), "failures", root.get("failures"))' %t/j.xml
# CHECK: JUnit tests 1 failures 1
# RUN: %expr %t/s.sarif \
# RUN:   '[(x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].split("/")[-1], x["locations"][0]["physicalLocation"]["region"]["startLine"]) for x in r["runs"][0]["results"]] == [("loop_leak.cu", 8)]'
# CHECK: holds:
# RUN: awk 'BEGIN { for (i = 0; i < 200000; ++i) printf "leak:ns_%d::unrelated_function_%d kind:device\n", i %% 97, i }' > %t/many.supp; echo 'leak:step kind:device' >> %t/many.supp
# RUN: %run --verbose --error-exitcode 23 --suppressions %t/many.supp -o %t/sup.%p.json -- %build/samples/sample_loop_leak
# CHECK-DAG-RE: suppression rules: 2000[0-9][0-9], mapped from the run's compiled file
# CHECK-DAG: leak:step kind:device (%t/many.supp:200001)
# RUN: CUDALEAK_OPTIONS=verbose=1:suppressions=%t/many.supp:output=%t/sup_plain.%p.json %preload %build/samples/sample_loop_leak
# CHECK-DAG-RE: suppression rules: 2000[0-9][0-9], parsed from the files
# CHECK-DAG: Suppressed: 50 / 800.0 KiB
