#include "tests/fuzz/exercise.h"

#include <cstring>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "report/gate/baseline.h"
#include "report/capture/crash_report.h"
#include "report/gate/gate.h"
#include "report/render/html_report.h"
#include "report/model/json_io.h"
#include "report/model/json_tokens.h"
#include "report/model/merge.h"
#include "common/options.h"
#include "report/gate/suppressions.h"
#include "report/render/text_report.h"
#include "report/analyze/views.h"
#include "report/symbols/device_lines.h"
#include "interpose/driver/decompress.h"

namespace cudaleak::fuzz {

namespace {

// A broken invariant is reported like a crash: libFuzzer stops on the
// uncaught exception, the mutation test on any exception.
void expect(bool ok, const char* what) {
  if (!ok) throw std::logic_error(what);
}

nlohmann::json value_of(report::schema::Tokens& t) {
  using report::schema::Token;
  switch (t.token) {
    case Token::BeginObject: {
      nlohmann::json o = nlohmann::json::object();
      while (t.next() == Token::Key) {
        std::string key(t.text);
        t.next();
        o[key] = value_of(t);  // a repeated key: the last value, as nlohmann keeps
      }
      return o;
    }
    case Token::BeginArray: {
      nlohmann::json a = nlohmann::json::array();
      while (t.next() != Token::EndArray) a.push_back(value_of(t));
      return a;
    }
    case Token::String: return std::string(t.text);
    case Token::Unsigned: return t.unsigned_value;
    case Token::Negative: return t.negative_value;
    case Token::Double: return t.double_value;
    case Token::True: return true;
    case Token::False: return false;
    case Token::Null: return nullptr;
    default: throw std::logic_error("a value starts with the end of a container");
  }
}

std::optional<nlohmann::json> tokenized(report::schema::Tokens& t) {
  try {
    t.next();
    nlohmann::json j = value_of(t);
    expect(t.next() == report::schema::Token::End, "a token after the document");
    expect(t.next() == report::schema::Token::End, "the end does not stay the end");
    return j;
  } catch (const report::SyntaxError& e) {
    if (std::string(e.what()).starts_with("nested deeper")) throw;  // a limit nlohmann does not have
    return std::nullopt;
  }
}

}  // namespace

void exercise_tokens(const std::string& text) {
  std::optional<nlohmann::json> tree;
  try {
    tree = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) {
  }
  try {
    report::schema::TextTokens whole(text);
    auto read = tokenized(whole);
    // nlohmann's lexer takes a NUL byte for the end of the input and ignores
    // what follows; the tokenizer refuses it, as JSON does outside strings.
    if (text.find('\0') == std::string::npos) {
      expect(read.has_value() == tree.has_value(),
             "the tokenizer and nlohmann's parser disagree on whether this is JSON");
      if (tree) expect(*read == *tree, "the tokenizer reads other values than nlohmann's parser");
    }
    for (size_t chunk : {1, 3, 64}) {
      std::stringbuf in(text);
      report::schema::TextTokens chunks(&in, {}, chunk);
      expect(tokenized(chunks) == read, "the tokenizer reads otherwise when the text comes in chunks");
    }
  } catch (const report::SyntaxError&) {  // deeper than the tokenizer goes
  }
}

void exercise_report(const std::string& text) {
  exercise_tokens(text);
  report::Report r;
  try {
    r = report::from_json(text);
  } catch (const report::FormatError&) {
    return;
  }
  std::string json = report::to_json(r);
  expect(report::from_json(json) == r, "a report read back differs from the one written");
  render::render_text(r, {});
  render::html_report(r);
  report::Filter filter;
  filter.kinds = {Kind::Device, Kind::Pinned, Kind::LibraryHandle};
  filter.min_bytes = 1;
  filter.function = "main*";
  render::render_text(report::filter_report(r, filter), {});
  for (const char* by : {"function", "module", "file", "kind"}) report::aggregate(r, by);
  report::Report merged = report::merge_reports({r, r});
  render::render_text(merged, {});
  report::from_json(report::to_json(merged));
  report::diff_reports({r}, {merged});
}

void exercise_crash_capture(const std::string& text) {
  if (!capture::is_crash_capture(text)) return;
  try {
    capture::CrashCapture c = capture::parse_crash_capture(text);
    c.maps.clear();  // symbolizing would read whichever files the mutant names
    report::Report r = capture::build_crash_report(c, {64}, gate::GateConfig{});
    render::render_text(r, {});
  } catch (const report::FormatError&) {
  }
}

void exercise_suppressions(const std::string& text) {
  try {
    gate::RuleSetBuilder builder;
    builder.add_text(text, "fuzz.supp");
    gate::RuleSet rules = builder.build();
    report::Report r;
    report::LeakGroup g;
    g.kind = Kind::Device;
    g.bytes = g.count = 1;
    g.stack = {report::Frame{0x1000, "libfoo.so", "main", "a.cu", 3}};
    r.leaks.push_back(g);
    gate::apply_suppressions(r, rules);
    // The index finds exactly the rule that checking every rule in turn finds.
    if (rules.first_match(g) != rules.first_match_by_scan(g)) __builtin_trap();
  } catch (const gate::SyntaxError&) {
  }
}

void exercise_baseline(const std::string& text) {
  try {
    gate::Baseline b = gate::parse_baseline(text, "fuzz.json");
    gate::parse_baseline(gate::baseline_to_json(b), "again.json");
  } catch (const gate::BaselineError&) {
  }
}

void exercise_options(const std::string& text) {
  Options options;
  parse_options(text, options);  // problems are returned, never thrown
}

void exercise_device_lines(const std::string& bytes) {
  const auto table = symbols::DeviceLineTable::read(bytes.data(), bytes.size());
  for (uint64_t offset : {uint64_t(0), uint64_t(16), uint64_t(1) << 20}) (void)table.at("", offset);
}

void exercise_lz4(const std::string& bytes) {
  if (bytes.size() < 4) return;
  uint32_t declared = 0;
  std::memcpy(&declared, bytes.data(), 4);
  if (declared > (1u << 20)) return;
  std::vector<unsigned char> out(declared);
  const auto result = decompress::lz4_block(reinterpret_cast<const unsigned char*>(bytes.data()) + 4, bytes.size() - 4,
                                            out.data(), out.size());
  expect(result == decompress::Result::ok || result == decompress::Result::malformed,
         "an LZ4 block is ok or malformed");
}

Exercise exercise_for(const std::string& target) {
  if (target == "report") return exercise_report;
  if (target == "crash_capture") return exercise_crash_capture;
  if (target == "suppressions") return exercise_suppressions;
  if (target == "baseline") return exercise_baseline;
  if (target == "options") return exercise_options;
  if (target == "device_lines") return exercise_device_lines;
  if (target == "lz4") return exercise_lz4;
  return nullptr;
}

}  // namespace cudaleak::fuzz
