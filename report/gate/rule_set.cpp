#include "report/gate/rule_set.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "report/io/input_file.h"
#include "common/kinds.h"
#include "report/gate/pattern.h"

namespace cudaleak::gate {

namespace {

// Keys are the tail of the literal: C++ names share their namespace prefixes
// and differ at the end, and a shorter key makes a smaller index.
constexpr size_t kLiteralBytes = 24;

bool in_pool(uint32_t offset, uint32_t size, std::string_view pool) {
  return offset <= pool.size() && size <= pool.size() - offset;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// The next whitespace-separated word of `rest`, which moves past it.
std::string_view next_word(std::string_view& rest) {
  while (!rest.empty() && is_blank(rest.front())) rest.remove_prefix(1);
  size_t end = 0;
  while (end < rest.size() && !is_blank(rest[end])) ++end;
  std::string_view word = rest.substr(0, end);
  rest.remove_prefix(end);
  return word;
}

// One parsed line: views into the file's text until committed.
struct ParsedRule {
  std::string_view text, pattern, api;
  uint64_t kinds = 0;
  uint32_t line = 0;
};

ParsedRule parse_line(std::string_view line, uint32_t line_no, const std::string& source_name) {
  auto fail = [&](const std::string& what) {
    throw SyntaxError(source_name + ":" + std::to_string(line_no) + ": " + what + " in '" + std::string(line) + "'");
  };
  ParsedRule rule;
  rule.text = line;
  rule.line = line_no;
  std::string_view rest = line;
  std::string_view word = next_word(rest);
  if (!word.starts_with("leak:")) fail("expected 'leak:PATTERN'");
  rule.pattern = word.substr(5);
  if (rule.pattern.empty()) fail("empty pattern");
  while (!(word = next_word(rest)).empty()) {
    if (word.starts_with("kind:")) {
      std::string_view list = word.substr(5);
      if (list.empty()) fail("empty kind list");
      while (!list.empty()) {
        size_t comma = list.find(',');
        std::string_view name = list.substr(0, comma);
        auto kind = kind_from_name(name);
        if (!kind) fail("unknown kind '" + std::string(name) + "'");
        rule.kinds |= uint64_t(1) << unsigned(*kind);
        list.remove_prefix(comma == std::string_view::npos ? list.size() : comma + 1);
      }
    } else if (word.starts_with("api:")) {
      rule.api = word.substr(4);
      if (rule.api.empty()) fail("empty api pattern");
    } else {
      fail("unknown qualifier '" + std::string(word) + "' (expected kind: or api:)");
    }
  }
  return rule;
}

struct OwnedRules {
  std::string pool;
  std::vector<PackedRule> rules;
  std::vector<PackedSource> sources;
  std::vector<uint32_t> unkeyed;
  LiteralIndex index;
};

}  // namespace

std::string_view pattern_literal(std::string_view pattern) {
  pattern = split_anchors(pattern).body;  // the anchors pattern_matches() reads
  std::string_view best;
  while (!pattern.empty()) {
    size_t star = pattern.find('*');
    std::string_view piece = pattern.substr(0, star);
    if (piece.size() > best.size()) best = piece;
    pattern.remove_prefix(star == std::string_view::npos ? pattern.size() : star + 1);
  }
  return best.size() > kLiteralBytes ? best.substr(best.size() - kLiteralBytes) : best;
}

bool RuleSetView::valid() const {
  for (const PackedSource& s : sources)
    if (!in_pool(s.name, s.name_size, pool)) return false;
  for (const PackedRule& r : rules)
    if (!in_pool(r.text, r.text_size, pool) || !in_pool(r.pattern, r.pattern_size, pool) ||
        !in_pool(r.api, r.api_size, pool) || r.source >= sources.size() || r.pattern_size == 0)
      return false;
  for (size_t i = 0; i < unkeyed.size(); ++i)
    if (unkeyed[i] >= rules.size() || (i > 0 && unkeyed[i] <= unkeyed[i - 1])) return false;
  return rules.size() < std::numeric_limits<uint32_t>::max() && index.valid(uint32_t(rules.size()));
}

RuleSet::RuleSet() : RuleSet(RuleSetBuilder().build()) {}

RuleSet::RuleSet(RuleSetView view, std::shared_ptr<const void> storage) : view_(view), storage_(std::move(storage)) {}

std::string_view RuleSet::text(size_t rule) const {
  const PackedRule& r = view_.rules[rule];
  return view_.pool.substr(r.text, r.text_size);
}

std::string RuleSet::source(size_t rule) const {
  const PackedRule& r = view_.rules[rule];
  const PackedSource& s = view_.sources[r.source];
  return std::string(view_.pool.substr(s.name, s.name_size)) + ":" + std::to_string(r.line);
}

bool RuleSet::matches(size_t rule, const report::LeakGroup& group) const {
  const PackedRule& r = view_.rules[rule];
  if (r.kinds) {
    if (!(r.kinds & (uint64_t(1) << unsigned(group.kind)))) return false;
  }
  if (r.api_size && !pattern_matches(view_.pool.substr(r.api, r.api_size), group.api)) return false;
  std::string_view pattern = view_.pool.substr(r.pattern, r.pattern_size);
  for (const auto& f : group.stack)
    for (const std::string* field : {&f.function.str(), &f.file.str(), &f.module.str()})
      if (!field->empty() && pattern_matches(pattern, *field)) return true;
  return false;
}

size_t RuleSet::first_match(const report::LeakGroup& group) const {
  std::vector<uint32_t> candidates(view_.unkeyed.begin(), view_.unkeyed.end());
  for (const auto& f : group.stack)
    for (const std::string* field : {&f.function.str(), &f.file.str(), &f.module.str()})
      view_.index.for_each_match(*field, [&](uint32_t rule) { candidates.push_back(rule); });
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (uint32_t rule : candidates)
    if (matches(rule, group)) return rule;
  return size();
}

size_t RuleSet::first_match_by_scan(const report::LeakGroup& group) const {
  for (size_t rule = 0; rule < size(); ++rule)
    if (matches(rule, group)) return rule;
  return size();
}

struct RuleSetBuilder::State {
  std::string pool;
  std::vector<PackedRule> rules;
  std::vector<PackedSource> sources;

  // The rules kept, by what they match (pattern, api, kinds): a repeated rule
  // is dropped. Looked up by index, comparing in the pool.
  std::string_view part(uint32_t at, uint32_t size) const { return std::string_view(pool).substr(at, size); }
  struct Hash {
    const State* s;
    size_t operator()(uint32_t i) const {
      const PackedRule& r = s->rules[i];
      size_t h = std::hash<std::string_view>()(s->part(r.pattern, r.pattern_size));
      h = h * 31 + std::hash<std::string_view>()(s->part(r.api, r.api_size));
      return h * 31 + std::hash<uint64_t>()(r.kinds);
    }
  };
  struct Same {
    const State* s;
    bool operator()(uint32_t a, uint32_t b) const {
      const PackedRule &x = s->rules[a], &y = s->rules[b];
      return x.kinds == y.kinds && s->part(x.pattern, x.pattern_size) == s->part(y.pattern, y.pattern_size) &&
             s->part(x.api, x.api_size) == s->part(y.api, y.api_size);
    }
  };
  std::unordered_set<uint32_t, Hash, Same> kept{0, Hash{this}, Same{this}};
};

RuleSetBuilder::RuleSetBuilder() : state_(std::make_unique<State>()) {}
RuleSetBuilder::~RuleSetBuilder() = default;

void RuleSetBuilder::add_text(std::string_view text, const std::string& source_name) {
  std::vector<ParsedRule> parsed;  // the whole file parses before any of it is kept
  uint32_t line_no = 0;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view raw = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line_no;
    std::string_view line = trim(raw.substr(0, raw.find('#')));
    if (!line.empty()) parsed.push_back(parse_line(line, line_no, source_name));
  }
  State& s = *state_;
  size_t needed = s.pool.size() + source_name.size();
  for (const ParsedRule& p : parsed) needed += p.text.size();
  if (needed >= std::numeric_limits<uint32_t>::max())
    throw SyntaxError(source_name + ": too many rules (the rules of a run are limited to 4 GiB)");

  auto append = [&](std::string_view piece) {
    s.pool.append(piece);
    return uint32_t(s.pool.size() - piece.size());
  };
  const uint32_t source = uint32_t(s.sources.size());
  s.sources.push_back({append(source_name), uint32_t(source_name.size())});
  s.pool.reserve(needed);
  s.kept.reserve(s.rules.size() + parsed.size());
  for (const ParsedRule& p : parsed) {
    const size_t pool_before = s.pool.size();
    uint32_t text_at = append(p.text);
    auto at = [&](std::string_view part) { return uint32_t(text_at + (part.data() - p.text.data())); };
    s.rules.push_back({text_at, uint32_t(p.text.size()), at(p.pattern), uint32_t(p.pattern.size()),
                       p.api.empty() ? 0 : at(p.api), uint32_t(p.api.size()), source, p.line, p.kinds});
    if (!s.kept.insert(uint32_t(s.rules.size() - 1)).second) {  // the same rule again: the first one wins anyway
      s.rules.pop_back();
      s.pool.resize(pool_before);
    }
  }
}

void RuleSetBuilder::add_file(const std::string& path) {
  std::string text;
  try {
    text = io::read_input_file(path, "suppressions file");
  } catch (const io::InputFileError& e) {
    throw SyntaxError(e.what());
  }
  add_text(text, path);
}

RuleSet RuleSetBuilder::build() {
  auto owned = std::make_shared<OwnedRules>();
  State& s = *state_;
  owned->pool = std::move(s.pool);
  owned->rules = std::move(s.rules);
  owned->sources = std::move(s.sources);
  std::vector<std::string_view> keys;
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < owned->rules.size(); ++i) {
    const PackedRule& r = owned->rules[i];
    std::string_view literal = pattern_literal(std::string_view(owned->pool).substr(r.pattern, r.pattern_size));
    if (literal.empty()) {
      owned->unkeyed.push_back(i);
      continue;
    }
    keys.push_back(literal);
    ids.push_back(i);
  }
  owned->index = LiteralIndex(keys, ids);
  state_ = std::make_unique<State>();
  RuleSetView view{owned->rules, owned->sources, owned->unkeyed, owned->pool, owned->index.view()};
  return RuleSet(view, std::move(owned));
}

}  // namespace cudaleak::gate
