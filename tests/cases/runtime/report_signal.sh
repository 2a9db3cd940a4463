# report_signal refuses signals that end, crash or cannot be delivered
# (status 2, the option named); SIGUSR2 is taken.
# RUN(exit=2): %cudaleak run --report-signal 11 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal 15 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal 9 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal SIGTERM -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal SIGSEGV -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal RTMIN+-30 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal RTMIN+999 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal 32 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --report-signal 65 -- %build/samples/sample_clean_shared
# CHECK: --report-signal
# CHECK-NONE: clean run finished
# RUN: %run --report-signal SIGUSR2 -o /dev/null -- %build/samples/sample_clean_shared
# CHECK: clean run finished
