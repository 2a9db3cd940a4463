// Suppression rules, compiled: every rule of every file in one string pool and
// one table, duplicates dropped (the first keeps its place), and an index of
// the literal part of each pattern (literal_index.h). Which rule hides a leak
// group is then found by scanning the group's frames once, whatever the
// number of rules: only the rules whose literal occurs in a frame, and the
// few whose pattern has no literal (`leak:*`), are checked in full, in file
// order, so the first rule that matches wins as it always did.
//
// The same arrays are what `compiled_rules.h` writes to a file and maps back.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "report/gate/literal_index.h"
#include "report/model/report.h"

namespace cudaleak::gate {

// Thrown by the parser (RuleSetBuilder), naming "file:line: problem".
class SyntaxError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PackedRule {
  uint32_t text, text_size;        // the line as written, without comment (in the pool)
  uint32_t pattern, pattern_size;  // in the pool
  uint32_t api, api_size;          // in the pool; size 0: any api
  uint32_t source, line;           // index into the source names, line number from 1
  uint64_t kinds;                  // bit per Kind; 0: any kind
};
struct PackedSource {
  uint32_t name, name_size;  // in the pool
};

// The arrays of a compiled rule set, wherever they live.
struct RuleSetView {
  std::span<const PackedRule> rules;
  std::span<const PackedSource> sources;
  std::span<const uint32_t> unkeyed;  // rules whose pattern has no literal part, in order
  std::string_view pool;
  IndexView index;
  bool valid() const;  // every offset in range (a mapped file is checked before use)
};

class RuleSet {
 public:
  RuleSet();  // no rules
  RuleSet(RuleSetView view, std::shared_ptr<const void> storage);

  size_t size() const { return view_.rules.size(); }
  std::string_view text(size_t rule) const;
  std::string source(size_t rule) const;  // "file:line"
  // The first rule (in order) that hides the group, or size() when none does.
  size_t first_match(const report::LeakGroup& group) const;
  // The same, checking every rule in turn: the reference the index must agree with.
  size_t first_match_by_scan(const report::LeakGroup& group) const;
  const RuleSetView& view() const { return view_; }

 private:
  bool matches(size_t rule, const report::LeakGroup& group) const;
  RuleSetView view_;
  std::shared_ptr<const void> storage_;  // what view_ points into
};

// Parses rule files into one RuleSet. Throws SyntaxError (above)
// naming "file:line: problem"; a file that fails adds none of its rules.
class RuleSetBuilder {
 public:
  RuleSetBuilder();
  ~RuleSetBuilder();
  void add_text(std::string_view text, const std::string& source_name);
  void add_file(const std::string& path);
  RuleSet build();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The literal a pattern's matches must contain (its longest '*'-free part,
// anchors removed, its last 24 bytes at most); empty when it has none.
std::string_view pattern_literal(std::string_view pattern);

}  // namespace cudaleak::gate
