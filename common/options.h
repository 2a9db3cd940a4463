// Options of the preload library, shared with the launcher so that both accept
// and reject exactly the same keys and values.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cudaleak {

struct Options {
#define CUDALEAK_OPTION(type, key, def, help) type key = def;
#include "common/options.def"
#undef CUDALEAK_OPTION
};

struct OptionInfo {
  const char* key;
  const char* type;  // "string", "int" or "bool"
  const char* default_value;
  const char* help;
};
const std::vector<OptionInfo>& option_table();

// Applies "key=value:key=value" on top of `options`. A backslash escapes the
// next character, so values may hold ':' and ',' (escape_option_value);
// list values are split at unescaped ','. Returns one problem per entry
// refused (unknown key, bad value); valid entries are applied regardless.
struct OptionProblem {
  std::string key;      // as written; the whole entry when it is not key=value
  std::string message;  // names the key and the value
};
std::vector<OptionProblem> parse_options(const std::string& text, Options& options);

// The options that say whether and how the leak gate decides (error_exitcode,
// suppressions, baseline, ...): a bad value for one leaves the gate unable to
// give a verdict the user can trust.
bool is_gate_option(std::string_view key);

// A value as parse_options reads it back unchanged.
std::string escape_option_value(const std::string& value);

// Sets one option to a literal value (a list gets one entry); returns an empty
// string on success, else the problem, naming the key and the value
// ("error_exitcode: expected an integer, got 'abc'").
std::string set_option(Options& options, const std::string& key, const std::string& value);

// "key=value" lines of the values in effect.
std::string describe_options(const Options& options);

// Signal number for report_signal: 0 when disabled, -1 when unrecognised.
int signal_from_name(const std::string& name);

// The candidate closest to `word` by edit distance, or "" when none is close
// enough to be a typo of it: suggestions for keys, kinds, flags and commands.
std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace cudaleak
