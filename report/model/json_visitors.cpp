#include "json_visitors.h"

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

void explain_parse_error(const json::exception& e, const char* hint) {
  std::string reason = e.what();
  if (auto id_end = reason.find("] "); reason.starts_with("[json.exception.") && id_end != std::string::npos)
    reason = reason.substr(id_end + 2);  // drop nlohmann's exception id
  if (reason.size() > 160) reason = reason.substr(0, 157) + "...";  // a huge number is quoted whole
  throw FormatError(std::string("not valid JSON") + hint + ": " + reason);
}

json parse(const std::string& text, const char* hint) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for 1e999
    explain_parse_error(e, hint);
  }
}

std::string describe(const json& j) {
  auto shown = [&] {
    std::string text = j.dump(-1, ' ', true, json::error_handler_t::replace);
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
  };
  switch (j.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string " + shown();
    case json::value_t::null: return "null";
    case json::value_t::number_float: return "a number out of integer range or with a fraction (" + shown() + ")";
    default: return shown();
  }
}

void read_value(const json& j, const Path& at, bool& v) {
  if (!j.is_boolean()) fail(at, "expected true or false, got " + describe(j));
  v = j.get<bool>();
}

void read_value(const json& j, const Path& at, std::string& v) {
  if (!j.is_string()) fail(at, "expected a string, got " + describe(j));
  v = j.get_ref<const std::string&>();
}

// Addresses are hex strings ("0x7f3a..."): JSON numbers lose precision past
// 2^53 in most readers, and hex is what people compare with debuggers.
void read_value(const json& j, const Path& at, Hex v) {
  if (j.is_number_unsigned()) {
    v.value = j.get<uint64_t>();
    return;
  }
  if (!j.is_string()) fail(at, "expected a hex address such as \"0x7f00\", got " + describe(j));
  const std::string& s = j.get_ref<const std::string&>();
  size_t start = s.starts_with("0x") || s.starts_with("0X") ? 2 : 0;
  if (s.size() == start || s.size() - start > 16) fail(at, "expected a hex address of 1 to 16 digits, got " + describe(j));
  uint64_t value = 0;
  for (size_t i = start; i < s.size(); ++i) {
    char c = s[i];
    int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (digit < 0) fail(at, "expected a hex address, got " + describe(j));
    value = value << 4 | uint64_t(digit);
  }
  v.value = value;
}

void read_value(const json& j, const Path& at, Language v) {
  if (!j.is_string() || (j != "python" && j != "native")) fail(at, "expected \"python\" or \"native\", got " + describe(j));
  v.python = j == "python";
}

void read_value(const json& j, const Path& at, TimelinePoint& v) {
  if (!j.is_array() || j.size() < 2) fail(at, "expected [time_ns, max_total, bytes...], got " + describe(j));
  read_value(j[0], Path{&at, nullptr, 0}, v.time_ns);
  read_value(j[1], Path{&at, nullptr, 1}, v.max_total);
  v.bytes.resize(j.size() - 2);
  for (size_t i = 2; i < j.size(); ++i) read_value(j[i], Path{&at, nullptr, i}, v.bytes[i - 2]);
}

void read_value(const json& j, const Path& at, AllocatorSegment& v) {
  if (!j.is_array() || j.size() != 3) fail(at, "expected [address, size, blocks], got " + describe(j));
  read_value(j[0], Path{&at, nullptr, 0}, v.address);
  read_value(j[1], Path{&at, nullptr, 1}, v.size);
  read_value(j[2], Path{&at, nullptr, 2}, v.blocks);
}

void Reader::checked(const char* key, std::string& value, Check check) {
  (*this)(key, value, Required);
  if (check == Check::KindName && !kind_from_name(value))
    fail(Path{&at_, key}, "unknown kind \"" + value + "\" (docs/report-format.md lists the kinds)");
}

void write_value(json& j, Hex v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v.value));
  j = buf;
}

void write_value(json& j, Language v) { j = v.python ? "python" : "native"; }

void write_value(json& j, const TimelinePoint& v) {
  j = json::array({v.time_ns, v.max_total});
  for (uint64_t b : v.bytes) j.push_back(b);
}

void write_value(json& j, const AllocatorSegment& v) {
  j = json::array({v.address, v.size});
  write_value(j.emplace_back(), v.blocks);
}

}  // namespace cudaleak::report::schema
