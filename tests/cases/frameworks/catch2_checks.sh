# Catch2: cudaleak.h checks fail exactly the leaking test (the forgotten
# event), and the report has the event, not the stream that was destroyed.
# RUN(exit=1): %run -o %t/r.json -- %build/tests/e2e/catch2_cuda '~*budget*'
# CHECK: event is forgotten
# CHECK: test cases: 2 | 1 passed | 1 failed
# RUN: %expr %t/r.json 'group("event") is not None and group("stream") is None'
# CHECK: holds:
