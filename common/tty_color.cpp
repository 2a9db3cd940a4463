#include "common/tty_color.h"

#include <unistd.h>

#include <cstdlib>

namespace cudaleak {

bool color_wanted(const std::string& mode, int fd) {
  if (mode != "auto") return mode == "always";
  const char* no_color = std::getenv("NO_COLOR");
  return !(no_color && *no_color) && fd >= 0 && isatty(fd);
}

}  // namespace cudaleak
