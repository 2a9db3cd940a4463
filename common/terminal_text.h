// Text bound for a terminal (or a log a terminal will show) carries names that
// come from the program: functions, files, modules, checkpoints, paths. A
// control character in one of them (an escape sequence that sets the
// terminal's title, moves the cursor or hides what follows; a newline that
// forges a line of the report) is written as \xNN, as `cat -v` and the
// sanitizers' reports make them visible.
#pragma once
#include <string>
#include <string_view>

namespace cudaleak {

// `name` with every control character escaped: C0 (newline and tab too),
// DEL, and C1 written in UTF-8 (U+0080-U+009F, which terminals obey too).
std::string printable_name(std::string_view name);

// Whole rendered text: as printable_name, but newlines stay, and so do the
// colour sequences the renderers themselves write (bold, red, green, reset).
std::string terminal_safe(std::string_view text);

}  // namespace cudaleak
