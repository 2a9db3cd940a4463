#include "interpose/base/self_module.h"

namespace cudaleak {

bool is_own_code(const void* address) {
  static const CodeRange range = own_range();
  auto a = reinterpret_cast<uintptr_t>(address);
  return a >= range.begin && a < range.end;
}

}  // namespace cudaleak
