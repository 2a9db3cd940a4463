// CHECK(call) for test programs: a CUDA or library call that returns anything
// but success ends the program with status 3 and the call on stderr, so a test
// never goes on from a half-made state.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                             \
  do {                                                                          \
    if (int r_ = int(call); r_ != 0) {                                          \
      std::fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, r_); \
      std::exit(3);                                                             \
    }                                                                           \
  } while (0)
