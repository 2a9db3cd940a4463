// Keeps the self-contained binaries loadable on glibc 2.34/2.35 (Ubuntu 22.04,
// common on GPU machines): the static libstdc++ of this toolchain calls
// arc4random, which only glibc 2.36 exports. This hidden definition satisfies
// it from getrandom(2) instead.
#include <sys/random.h>

#include <cstdint>

extern "C" __attribute__((visibility("hidden"))) uint32_t arc4random() {
  uint32_t value = 0;
  while (getrandom(&value, sizeof value, 0) != sizeof value) {
  }
  return value;
}
