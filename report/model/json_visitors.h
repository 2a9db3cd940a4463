// The two walkers of the schema (json_schema.h): Writer turns the model into
// JSON; Reader turns JSON into the model and checks every value it takes for
// type and range, failing with the JSON path and the problem in one line, e.g.
// "$.leaks[3].bytes: expected an unsigned integer, got -1".
#pragma once
#include <concepts>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "json_io.h"
#include "json_schema.h"
#include "kinds.h"

namespace cudaleak::report::schema {

using nlohmann::json;

// Where a value sits in the document. Built on the stack while reading and
// turned into text only for an error, so that reading stays cheap.
struct Path {
  const Path* parent = nullptr;
  const char* key = nullptr;  // member name, or nullptr for an array element
  size_t index = 0;
  std::string str() const;
};

[[noreturn]] void fail(const Path& at, const std::string& problem);
// Parses JSON text; throws FormatError("not valid JSON<hint>: <reason>") for
// text that is not JSON, numbers past a double's range included.
json parse(const std::string& text, const char* hint = "");
[[noreturn]] void explain_parse_error(const json::exception& e, const char* hint);
std::string describe(const json& j);  // "a string \"zz\"", "-1", "an object", ...

template <class T>
struct is_present : std::false_type {};
template <class T>
struct is_present<Present<T>> : std::true_type {};

class Reader;
class Writer;
template <class T>
concept Described = requires(Writer& w, T& t) { fields(w, t); };

// Every value type the schema uses, both directions.
void read_value(const json& j, const Path& at, bool& v);
void read_value(const json& j, const Path& at, std::string& v);
void read_value(const json& j, const Path& at, Hex v);
void read_value(const json& j, const Path& at, Language v);
void read_value(const json& j, const Path& at, TimelinePoint& v);
void read_value(const json& j, const Path& at, AllocatorSegment& v);
template <std::integral T>
  requires(!std::same_as<T, bool>)
void read_value(const json& j, const Path& at, T& v);
template <class A, class B>
void read_value(const json& j, const Path& at, std::pair<A, B>& v);
template <class T>
void read_value(const json& j, const Path& at, std::vector<T>& v);
template <class T>
void read_value(const json& j, const Path& at, std::map<std::string, T>& v);
template <Described T>
void read_value(const json& j, const Path& at, T& v);

void write_value(json& j, Hex v);
void write_value(json& j, Language v);
void write_value(json& j, const TimelinePoint& v);
void write_value(json& j, const AllocatorSegment& v);
template <class T>
  requires(std::is_arithmetic_v<T> || std::same_as<T, std::string>)
void write_value(json& j, const T& v) {
  j = v;
}
template <class A, class B>
void write_value(json& j, const std::pair<A, B>& v);
template <class T>
void write_value(json& j, const std::vector<T>& v);
template <class T>
void write_value(json& j, const std::map<std::string, T>& v);
template <Described T>
void write_value(json& j, const T& v);

class Reader {
 public:
  static constexpr bool reading = true;
  Reader(const json& object, const Path& at) : object_(object), at_(at) {}

  template <class T>
  void operator()(const char* key, T&& value, Presence presence = Always) {
    auto it = object_.find(key);
    const Path at{&at_, key};
    if (it == object_.end()) {
      if (presence == Required) fail(at, "is missing");
      return;
    }
    if constexpr (is_present<std::decay_t<T>>::value) {
      value.present = true;
      read_value(*it, at, value.value);
    } else {
      read_value(*it, at, value);
    }
  }
  void checked(const char* key, std::string& value, Check check);
  void unless(const char* key, int& value, int /*omitted*/) { (*this)(key, value); }
  // A rule across fields: fails at `key` with `problem` unless `ok`.
  void require(bool ok, const char* key, const std::string& problem) {
    if (!ok) fail(Path{&at_, key}, problem);
  }

 private:
  const json& object_;
  const Path& at_;
};

class Writer {
 public:
  static constexpr bool reading = false;
  explicit Writer(json& object) : object_(object) {}

  template <class T>
  void operator()(const char* key, T&& value, Presence presence = Always) {
    if constexpr (is_present<std::decay_t<T>>::value) {
      if (value.present) write_value(object_[key], value.value);
    } else {
      if (presence == IfSet && is_default(value)) return;
      write_value(object_[key], value);
    }
  }
  void checked(const char* key, std::string& value, Check) { object_[key] = value; }
  void unless(const char* key, int& value, int omitted) {
    if (value != omitted) object_[key] = value;
  }

 private:
  template <class T>
  static bool is_default(const T& v) {
    if constexpr (std::is_arithmetic_v<T>) return v == T{};
    else if constexpr (std::same_as<T, Hex>) return v.value == 0;
    else if constexpr (std::same_as<T, Language>) return !v.python;
    else if constexpr (requires { v.empty(); }) return v.empty();
    else return false;  // objects are written whole
  }
  json& object_;
};

template <std::integral T>
  requires(!std::same_as<T, bool>)
void read_value(const json& j, const Path& at, T& v) {
  if (j.is_number_unsigned()) {
    uint64_t u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) fail(at, "is out of range: " + describe(j));
    v = static_cast<T>(u);
  } else if (j.is_number_integer()) {  // negative
    int64_t i = j.get<int64_t>();
    if constexpr (std::is_unsigned_v<T>) fail(at, "must not be negative, got " + describe(j));
    else if (i < static_cast<int64_t>(std::numeric_limits<T>::min())) fail(at, "is out of range: " + describe(j));
    v = static_cast<T>(i);
  } else {
    fail(at, std::string("expected ") + (std::is_unsigned_v<T> ? "an unsigned integer" : "an integer") + ", got " +
                 describe(j));
  }
}

template <class A, class B>
void read_value(const json& j, const Path& at, std::pair<A, B>& v) {
  if (!j.is_array() || j.size() != 2) fail(at, "expected a pair [a, b], got " + describe(j));
  read_value(j[0], Path{&at, nullptr, 0}, v.first);
  read_value(j[1], Path{&at, nullptr, 1}, v.second);
}

template <class T>
void read_value(const json& j, const Path& at, std::vector<T>& v) {
  if (!j.is_array()) fail(at, "expected an array, got " + describe(j));
  v.clear();
  v.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) read_value(j[i], Path{&at, nullptr, i}, v.emplace_back());
}

template <class T>
void read_value(const json& j, const Path& at, std::map<std::string, T>& v) {
  if (!j.is_object()) fail(at, "expected an object, got " + describe(j));
  v.clear();
  for (const auto& [key, value] : j.items()) read_value(value, Path{&at, key.c_str()}, v[key]);
}

template <Described T>
void read_value(const json& j, const Path& at, T& v) {
  if (!j.is_object()) fail(at, "expected an object, got " + describe(j));
  Reader reader(j, at);
  fields(reader, v);
}

template <class A, class B>
void write_value(json& j, const std::pair<A, B>& v) {
  j = json::array();
  write_value(j.emplace_back(), v.first);
  write_value(j.emplace_back(), v.second);
}

template <class T>
void write_value(json& j, const std::vector<T>& v) {
  j = json::array();
  for (const T& x : v) write_value(j.emplace_back(), x);
}

template <class T>
void write_value(json& j, const std::map<std::string, T>& v) {
  j = json::object();
  for (const auto& [key, x] : v) write_value(j[key], x);
}

// The writer walks the same field list as the reader; it only reads the
// object, so dropping const here changes nothing.
template <Described T>
void write_value(json& j, const T& v) {
  j = json::object();
  Writer writer(j);
  fields(writer, const_cast<T&>(v));
}

}  // namespace cudaleak::report::schema
