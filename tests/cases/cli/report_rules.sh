# report --gen-suppressions prints the rules of a report read later; without
# it, none.
# RUN(exit=3): %run -o %t/r.json -- %build/samples/sample_exception_leak_shared
# RUN: %report --gen-suppressions %t/r.json
# CHECK-RE: \nleak:process_batch kind:device\n
# RUN: %report %t/r.json
# CHECK-NONE: leak:process_batch
