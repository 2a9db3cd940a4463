// libFuzzer entry point; CUDALEAK_FUZZ_TARGET names the parser (exercise.h).
// Built by tests/fuzz/CMakeLists.txt with clang when CUDALEAK_FUZZ is on.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tests/fuzz/exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const cudaleak::fuzz::Exercise exercise = cudaleak::fuzz::exercise_for(CUDALEAK_FUZZ_TARGET);
  exercise(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
