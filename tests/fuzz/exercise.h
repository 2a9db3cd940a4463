// What each parser is put through, by the libFuzzer targets (fuzz_target.cpp)
// and by the mutation test that runs in every build (test_mutants.cpp). Each
// function accepts any bytes: a parser may refuse them only with its own
// documented error; any other exception, crash or sanitizer finding is a bug.
#pragma once
#include <string>

namespace cudaleak::fuzz {

// Parses a report, then renders, filters, aggregates, merges and diffs it,
// and checks that writing and reading it again gives the same report.
// The report tokenizer (json_tokens.h) against nlohmann's parser: the same
// texts accepted and the same values read, in chunks of every size tried.
void exercise_tokens(const std::string& text);
void exercise_report(const std::string& text);
void exercise_crash_capture(const std::string& text);
void exercise_suppressions(const std::string& text);
void exercise_baseline(const std::string& text);
void exercise_options(const std::string& text);
// A cubin's device line table (report/symbols/device_lines.h), and a line
// looked up in each of its functions.
void exercise_device_lines(const std::string& bytes);
// An LZ4 block (interpose/driver/decompress.h): the first 4 bytes give the
// declared size (little-endian, at most 1 MiB), the rest is the block.
void exercise_lz4(const std::string& bytes);

// The one for a target name: "report", "crash_capture", "suppressions", "baseline", "options",
// "device_lines", "lz4".
using Exercise = void (*)(const std::string&);
Exercise exercise_for(const std::string& target);

}  // namespace cudaleak::fuzz
