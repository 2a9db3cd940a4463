// The report tokenizer (json_tokens.h): what it accepts and reads equals
// nlohmann's parser, in any chunking; what it refuses gets a reason and the
// byte where it stopped.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/fuzz/exercise.h"
#include "report/model/json_io.h"
#include "report/model/json_tokens.h"
#include "report/model/summary.h"

using namespace cudaleak::report;
using schema::TextTokens;
using schema::Token;

namespace {

std::string error_of(const std::string& text) {
  try {
    TextTokens t(text);
    while (t.next() != Token::End) {
    }
  } catch (const SyntaxError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("json tokens: valid and invalid texts are read as nlohmann reads them", "[json]") {
  const char* texts[] = {
      "{}",
      "[]",
      "0",
      "-0",
      "1.5",
      "-1.25e-3",
      "1E+2",
      "18446744073709551615",
      "18446744073709551616",
      "-9223372036854775808",
      "-9223372036854775809",
      "1e-999",
      "1e999",
      "true",
      "false",
      "null",
      " \t\r\n[1, 2]\n",
      "{\"a\": {\"b\": [1, {\"c\": null}]}, \"a\": 2}",
      "\"\\u00e9\\ud83d\\ude00\\n\\\"\\\\\\/\\b\\f\\r\\t\"",
      "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"",
      "\xef\xbb\xbf{\"bom\": 1}",
      // refused
      "",
      "{",
      "[1,]",
      "{\"a\" 1}",
      "{\"a\":1,}",
      "{a:1}",
      "01",
      "1.",
      ".5",
      "+1",
      "-",
      "1e",
      "nul",
      "tru",
      "[1] 2",
      "\"\\x\"",
      "\"\\u12\"",
      "\"\\ud800\"",
      "\"\\udc00\"",
      "\"\\ud800\\u0041\"",
      "\"\xc0\xaf\"",
      "\"\xed\xa0\x80\"",
      "\"\xf4\x90\x80\x80\"",
      "\"\xff\"",
      "\"a\x01\"",
      "\"unterminated",
      "[1 2]",
      "{\"a\":1 \"b\":2}",
      "}",
      "]",
  };
  for (const char* text : texts) {
    INFO(text);
    CHECK_NOTHROW(cudaleak::fuzz::exercise_tokens(text));
  }
}

TEST_CASE("json tokens: every fixture reads the same in chunks of any size", "[json]") {
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(CUDALEAK_FIXTURES)) {
    if (entry.path().extension() != ".json" || entry.file_size() > (1 << 20)) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(entry.path());
    CHECK_NOTHROW(cudaleak::fuzz::exercise_tokens(text));
    if (++files == 40) break;
  }
  CHECK(files >= 10);
}

TEST_CASE("json tokens: errors say what was wrong and at which byte", "[json]") {
  CHECK(error_of("{\"a\": 1,}") == "expected a member name in quotes, got '}' at byte 8");
  CHECK(error_of("[1 2]") == "expected ',' or ']', got '2' at byte 3");
  CHECK(error_of("{\"a\": tru}") == "invalid literal (expected 'true'), got '}' at byte 9");
  CHECK(error_of("\"a\x01\"") == "control character byte 0x01 in a string (write it as \\u00XX) at byte 2");
  CHECK(error_of("[1e999]") == "number overflow parsing '1e999' at byte 6");
  CHECK(error_of("\"\xff\"") == "invalid UTF-8 in a string (byte 0xff) at byte 2");
  CHECK(error_of("[1] x") == "unexpected 'x' after the document at byte 4");
  CHECK(error_of(std::string(600, '[')) == "nested deeper than 512 levels at byte 512");
  CHECK(error_of("[\"abc") == "unexpected end of input in a string at byte 5");
  CHECK(error_of(std::string("33\0&", 4)) == "unexpected byte 0x00 after the document at byte 2");
}

TEST_CASE("json tokens: numbers come with their exact value and their text", "[json]") {
  TextTokens t("[18446744073709551615, -9223372036854775808, 2.5, 1e400]");
  CHECK(t.next() == Token::BeginArray);
  CHECK(t.next() == Token::Unsigned);
  CHECK(t.unsigned_value == UINT64_MAX);
  CHECK(t.next() == Token::Negative);
  CHECK(t.negative_value == INT64_MIN);
  CHECK(t.text == "-9223372036854775808");
  CHECK(t.next() == Token::Double);
  CHECK(t.double_value == 2.5);
  CHECK_THROWS_WITH(t.next(), Catch::Contains("number overflow parsing '1e400'"));
}

TEST_CASE("json tokens: a stream is read in chunks and its progress told", "[json]") {
  std::string text = "[\"" + std::string(5000, 'x') + "\", 12345, true]";
  std::stringbuf in(text);
  std::vector<uint64_t> told;
  TextTokens t(
      &in, [&](uint64_t n) { told.push_back(n); }, 1000);
  CHECK(t.next() == Token::BeginArray);
  CHECK(t.next() == Token::String);
  CHECK(t.text.size() == 5000);
  CHECK(t.next() == Token::Unsigned);
  CHECK(t.unsigned_value == 12345);
  CHECK(t.next() == Token::True);
  CHECK(t.next() == Token::EndArray);
  CHECK(t.next() == Token::End);
  REQUIRE(!told.empty());
  CHECK(told.back() == text.size());
  CHECK(told.size() == (text.size() + 999) / 1000);
}

TEST_CASE("json tokens: a report's members are read in any order and unknown ones skipped", "[json]") {
  Report r;
  r.reason = Reason::Exit;
  r.process.pid = 7;
  LeakGroup g;
  g.kind = Kind::Device;
  g.bytes = 4;
  g.count = 1;
  g.allocations.push_back(Allocation{cudaleak::Record{.handle = 0x10, .bytes = 4}});
  r.leaks.push_back(g);
  r.summary = summarize(r.leaks);
  auto j = nlohmann::json::parse(to_json(r));
  j["leaks"][0]["future_field"] = {{"nested", {1, 2, {{"x", "y"}}}}};
  // Members in reverse order of the writer's.
  std::string reversed = "{";
  for (auto it = j.rbegin(); it != j.rend(); ++it)
    reversed += (reversed.size() > 1 ? "," : "") + nlohmann::json(it.key()).dump() + ":" + it.value().dump();
  reversed += "}";
  CHECK(from_json(reversed) == r);
}
