#include "report/model/json_visitors.h"

#include <cstdio>

namespace cudaleak::report::schema {

std::string Path::str() const {
  if (!parent) return "$";
  std::string s = parent->str();
  if (key) {
    s += '.';
    s += key;
  } else {
    s += '[' + std::to_string(index) + ']';
  }
  return s;
}

void fail(const Path& at, const std::string& problem) { throw FormatError(at.str() + ": " + problem); }

namespace {

[[noreturn]] void explain_parse_error(const json::exception& e, const char* hint) {
  std::string reason = e.what();
  if (auto id_end = reason.find("] "); reason.starts_with("[json.exception.") && id_end != std::string::npos)
    reason = reason.substr(id_end + 2);                             // drop nlohmann's exception id
  if (reason.size() > 160) reason = reason.substr(0, 157) + "...";  // a huge number is quoted whole
  throw FormatError(std::string("not valid JSON") + hint + ": " + reason);
}

}  // namespace

json parse(const std::string& text, const char* hint) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    explain_parse_error(e, hint);
  }
}

std::string describe(const Tokens& t) {
  switch (t.token) {
    case Token::BeginObject: return "an object";
    case Token::BeginArray: return "an array";
    case Token::True: return "true";
    case Token::False: return "false";
    case Token::Null: return "null";
    case Token::String: {
      std::string text = json(std::string(t.text)).dump(-1, ' ', true, json::error_handler_t::replace);
      return "a string " + (text.size() > 40 ? text.substr(0, 37) + "..." : text);
    }
    case Token::Double:
      return "a number out of integer range or with a fraction (" + std::string(t.text.substr(0, 40)) + ")";
    case Token::Unsigned:
    case Token::Negative: return std::string(t.text);
    default: return "the end of an object or array";
  }
}

void skip_value(Tokens& t) {
  if (t.token != Token::BeginObject && t.token != Token::BeginArray) return;
  const size_t depth = t.depth();  // with the container the source is on
  do t.next();
  while (t.depth() >= depth);
}

void read_value(Tokens& t, const Path& at, bool& v) {
  if (t.token != Token::True && t.token != Token::False) fail(at, "expected true or false, got " + describe(t));
  v = t.token == Token::True;
}

void read_value(Tokens& t, const Path& at, std::string& v) {
  if (t.token != Token::String) fail(at, "expected a string, got " + describe(t));
  v.assign(t.text);
}

// Addresses are hex strings ("0x7f3a..."): JSON numbers lose precision past
// 2^53 in most readers, and hex is what people compare with debuggers.
void read_value(Tokens& t, const Path& at, Hex v) {
  if (t.token == Token::Unsigned) {
    v.value = t.unsigned_value;
    return;
  }
  if (t.token != Token::String) fail(at, "expected a hex address such as \"0x7f00\", got " + describe(t));
  std::string_view s = t.text;
  size_t start = s.starts_with("0x") || s.starts_with("0X") ? 2 : 0;
  if (s.size() == start || s.size() - start > 16)
    fail(at, "expected a hex address of 1 to 16 digits, got " + describe(t));
  uint64_t value = 0;
  for (size_t i = start; i < s.size(); ++i) {
    char c = s[i];
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0) fail(at, "expected a hex address, got " + describe(t));
    value = value << 4 | uint64_t(digit);
  }
  v.value = value;
}

void read_value(Tokens& t, const Path& at, Language v) {
  if (t.token != Token::String || (t.text != "python" && t.text != "native"))
    fail(at, "expected \"python\" or \"native\", got " + describe(t));
  v.python = t.text == "python";
}

void read_value(Tokens& t, const Path& at, TimelinePoint& v) {
  const char* expected = "expected [time_ns, max_total, bytes...]";
  v.bytes.clear();
  size_t n = read_elements(t, at, expected, [&](size_t i, const Path& item) {
    read_value(t, item, i == 0 ? v.time_ns : i == 1 ? v.max_total : v.bytes.emplace_back());
  });
  if (n < 2) fail(at, std::string(expected) + ", got an array of " + std::to_string(n));
}

void read_value(Tokens& t, const Path& at, AllocatorSegment& v) {
  const char* expected = "expected [address, size, blocks]";
  size_t n = read_elements(t, at, expected, [&](size_t i, const Path& item) {
    if (i == 0) read_value(t, item, v.address);
    else if (i == 1) read_value(t, item, v.size);
    else if (i == 2) read_value(t, item, v.blocks);
    else fail(at, std::string(expected) + ", got an array of more than 3");
  });
  if (n != 3) fail(at, std::string(expected) + ", got an array of " + std::to_string(n));
}

void read_value(Tokens& t, const Path& at, InternedString& v) {
  std::string text;
  read_value(t, at, text);
  v = text;
}

void write_value(Emitter& e, Hex v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v.value));
  e.string(buf);
}

void write_value(Emitter& e, Language v) { e.string(v.python ? "python" : "native"); }

void write_value(Emitter& e, const TimelinePoint& v) {
  e.begin_array();
  e.value(v.time_ns);
  e.value(v.max_total);
  for (uint64_t b : v.bytes) e.value(b);
  e.end_array();
}

void write_value(Emitter& e, const AllocatorSegment& v) {
  e.begin_array();
  e.value(v.address);
  e.value(v.size);
  write_value(e, v.blocks);
  e.end_array();
}

}  // namespace cudaleak::report::schema
