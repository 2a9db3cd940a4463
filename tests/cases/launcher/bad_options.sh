# Bad options are named and nothing runs (status 2); a program that does not
# exist is 127, as a shell says.
# RUN(exit=2): %cudaleak run --stack-depth 0 -- /bin/echo ran
# CHECK: --stack-depth: '0' is not between 1 and 256
# CHECK-NONE: ran
# RUN(exit=2): %cudaleak run --option nope=1 -- /bin/echo ran
# CHECK: unknown option 'nope'
# CHECK-NONE: ran
# RUN(exit=127): %cudaleak run -- /nonexistent/program
# CHECK-NONE: SUMMARY
