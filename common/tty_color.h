#pragma once
#include <string>

namespace cudaleak {

// The color option's answer for text written to `fd` (-1: a file of its own):
// always, never, or auto = a terminal with NO_COLOR unset (no-color.org).
bool color_wanted(const std::string& mode, int fd);

}  // namespace cudaleak
