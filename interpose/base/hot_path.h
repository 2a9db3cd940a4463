// The functions every tracked create and release runs, placed together:
// GCC puts functions marked hot into .text.hot, which the linker gathers in
// one run, so that the record path's code lies on one or two pages instead of
// six to nine spread over the library. Each page a call touches beyond what
// the program's own work keeps warm costs about 6-10 ns on the H100's host
// (docs/performance.md, "Where the time goes").
#pragma once

#define CUDALEAK_HOT_PATH __attribute__((hot))
