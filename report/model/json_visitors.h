// The walkers of the schema (json_schema.h): Writer turns the model into
// JSON text (json_emit.h); Match and Finish turn JSON tokens (json_tokens.h) into the model and
// check every value they take for type and range, failing with the JSON path
// and the problem in one line, e.g.
// "$.leaks[3].bytes: expected an unsigned integer, got -1".
#pragma once
#include <algorithm>
#include <concepts>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "report/model/format_error.h"
#include "report/model/json_emit.h"
#include "report/model/json_schema.h"
#include "report/model/json_tokens.h"
#include "common/enum_names.h"
#include "common/kinds.h"

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

template <class T>
struct is_present : std::false_type {};
template <class T>
struct is_present<Present<T>> : std::true_type {};

class Writer;
template <class T>
concept Described = requires(Writer& w, T& t) {
  fields(w, t);
};

std::string describe(const Tokens& t);  // "a string \"zz\"", "-1", "an object", ...

// Every value type the schema uses, both directions. A reader is called on
// the value's first token and leaves the source on its last.
void read_value(Tokens& t, const Path& at, bool& v);
void read_value(Tokens& t, const Path& at, std::string& v);
void read_value(Tokens& t, const Path& at, InternedString& v);
void read_value(Tokens& t, const Path& at, Hex v);
void read_value(Tokens& t, const Path& at, Language v);
void read_value(Tokens& t, const Path& at, TimelinePoint& v);
void read_value(Tokens& t, const Path& at, AllocatorSegment& v);
template <std::integral T>
requires(!std::same_as<T, bool>) void read_value(Tokens& t, const Path& at, T& v);
template <class A, class B>
void read_value(Tokens& t, const Path& at, std::pair<A, B>& v);
template <class T>
void read_value(Tokens& t, const Path& at, std::vector<T>& v);
template <class K, class T>
void read_value(Tokens& t, const Path& at, std::map<K, T>& v);
// Enums, by the names of enum_names.h.
template <class E>
requires std::is_enum_v<E>
void read_value(Tokens& t, const Path& at, E& v) {
  if (t.token != Token::String) fail(at, std::string("expected a ") + noun_of(E{}) + " name, got " + describe(t));
  if (!parse_name(t.text, v))
    fail(at, std::string("unknown ") + noun_of(E{}) + " \"" + std::string(t.text) +
                 "\" (docs/report-format.md lists them)");
}
template <Described T>
void read_value(Tokens& t, const Path& at, T& v);

// The same from a parsed tree, for documents looked at as a whole first.
template <class T>
void read_value(const json& j, const Path& at, T&& v) {
  TreeTokens t(j);
  t.next();
  read_value(t, at, std::forward<T>(v));
}

// Moves past the value the source is on (its last token).
void skip_value(Tokens& t);
// Reads the elements of an array, each(index, path) on its first token;
// returns how many there were.
template <class Each>
size_t read_elements(Tokens& t, const Path& at, const char* expected, Each&& each) {
  if (t.token != Token::BeginArray) fail(at, std::string(expected) + ", got " + describe(t));
  size_t i = 0;
  for (; t.next() != Token::EndArray; ++i) each(i, Path{&at, nullptr, i});
  return i;
}

void write_value(Emitter& e, Hex v);
void write_value(Emitter& e, Language v);
void write_value(Emitter& e, const TimelinePoint& v);
void write_value(Emitter& e, const AllocatorSegment& v);
inline void write_value(Emitter& e, const std::string& v) { e.string(v); }
inline void write_value(Emitter& e, const InternedString& v) { e.string(v.str()); }
template <class T>
requires std::is_arithmetic_v<T>
void write_value(Emitter& e, const T& v) {
  static_assert(std::is_integral_v<T>, "the schema has no floating-point values");
  if constexpr (std::same_as<T, bool>) e.value(v);
  else if constexpr (std::is_unsigned_v<T>) e.value(static_cast<uint64_t>(v));
  else e.value(static_cast<int64_t>(v));
}
template <class A, class B>
void write_value(Emitter& e, const std::pair<A, B>& v);
template <class T>
void write_value(Emitter& e, const std::vector<T>& v);
template <class K, class T>
void write_value(Emitter& e, const std::map<K, T>& v);
template <class E>
requires std::is_enum_v<E>
void write_value(Emitter& e, E v) { e.string(name_of(v)); }
template <Described T>
void write_value(Emitter& e, const T& v);
// The whole value as JSON text (indent < 0: compact).
template <class T>
std::string write_text(const T& v, int indent) {
  std::string out;
  Emitter e(out, indent);
  write_value(e, v);
  return out;
}

// Reading an object walks its members in the order they come (so that a
// report streams through once): for each member, Match walks the type's field
// list and reads the value into the field of that name; members no field
// names are skipped. Then Finish walks the list again for what needs every
// member read: required fields, checks across fields, defaults.
class Match {
 public:
  static constexpr bool after_read = false;
  Match(Tokens& t, const Path& at, std::string_view key, uint64_t& seen) : t_(t), at_(at), key_(key), seen_(seen) {}

  template <class T>
  void operator()(const char* name, T&& value, Presence = Always) {
    if (!take(name)) return;
    const Path at{&at_, name};
    if constexpr (is_present<std::decay_t<T>>::value) {
      value.present = true;
      read_value(t_, at, value.value);
    } else {
      read_value(t_, at, value);
    }
  }
  void unless(const char* name, int& value, int /*omitted*/) { (*this)(name, value); }
  bool matched() const { return matched_; }

 private:
  // True for the field of the member's name, with the source moved to its value.
  bool take(const char* name) {
    size_t index = index_++;
    if (matched_ || !is_key(name)) return false;
    matched_ = true;
    if (index < 64) seen_ |= uint64_t(1) << index;
    t_.next();
    return true;
  }
  bool is_key(const char* name) const {  // key_ == name, most often decided by the first byte
    size_t i = 0;
    for (; i < key_.size(); ++i)
      if (name[i] != key_[i] || name[i] == 0) return false;
    return name[i] == 0;
  }
  Tokens& t_;
  const Path& at_;
  std::string_view key_;  // the source's text: valid until take() moves on
  uint64_t& seen_;
  size_t index_ = 0;
  bool matched_ = false;
};

class Finish {
 public:
  static constexpr bool after_read = true;
  Finish(const Path& at, uint64_t seen) : at_(at), seen_(seen) {}

  template <class T>
  void operator()(const char* name, T&&, Presence presence = Always) {
    size_t index = index_++;
    last_ = name;
    last_read_ = index < 64 && (seen_ >> index & 1);
    if (presence == Required && !last_read_) fail(Path{&at_, name}, "is missing");
  }
  void unless(const char* name, int& value, int) { (*this)(name, value); }
  // Whether the field just walked was in the object.
  bool was_read(const char* name) const { return last_ == name && last_read_; }
  // A rule across fields: fails at `key` with `problem` unless `ok`.
  void require(bool ok, const char* key, const std::string& problem) {
    if (!ok) fail(Path{&at_, key}, problem);
  }

 private:
  const Path& at_;
  uint64_t seen_;
  size_t index_ = 0;
  const char* last_ = nullptr;
  bool last_read_ = false;
};

// Members of one object of a tree looked up by name, in any order.
class TreeObject {
 public:
  TreeObject(const json& object, const Path& at) : object_(object), at_(at) {}
  template <class T>
  void operator()(const char* key, T&& value, Presence presence = Always) {
    auto it = object_.find(key);
    if (it == object_.end()) {
      if (presence == Required) fail(Path{&at_, key}, "is missing");
      return;
    }
    read_value(*it, Path{&at_, key}, std::forward<T>(value));
  }

 private:
  const json& object_;
  const Path& at_;
};

// Lists a type's member names in the order its field list names them.
class KeyLister {
 public:
  static constexpr bool after_read = false;
  explicit KeyLister(std::vector<const char*>& keys) : keys_(keys) {}
  template <class T>
  void operator()(const char* key, T&&, Presence = Always) {
    keys_.push_back(key);
  }
  void unless(const char* key, int&, int) { keys_.push_back(key); }

 private:
  std::vector<const char*>& keys_;
};

// Writes the one member of an object that comes at `target` in its field
// list: members are written in key order, as a JSON document keeps them,
// while the field list keeps the order that reads best in the code.
class Writer {
 public:
  static constexpr bool after_read = false;
  Writer(Emitter& e, size_t target) : e_(e), target_(target) {}

  template <class T>
  void operator()(const char* key, T&& value, Presence presence = Always) {
    if (index_++ != target_) return;
    if constexpr (is_present<std::decay_t<T>>::value) {
      if (!value.present) return;
      e_.key(key);
      write_value(e_, value.value);
    } else {
      if (presence == IfSet && is_default(value)) return;
      e_.key(key);
      write_value(e_, value);
    }
  }
  void unless(const char* key, int& value, int omitted) {
    if (index_++ != target_ || value == omitted) return;
    e_.key(key);
    e_.value(static_cast<int64_t>(value));
  }

 private:
  template <class T>
  static bool is_default(const T& v) {
    if constexpr (std::is_arithmetic_v<T> || std::is_enum_v<T>) return v == T{};
    else if constexpr (std::same_as<T, Hex>) return v.value == 0;
    else if constexpr (std::same_as<T, Language>) return !v.python;
    else if constexpr (requires { v.empty(); }) return v.empty();
    else return false;  // objects are written whole
  }
  Emitter& e_;
  size_t target_;
  size_t index_ = 0;
};

template <std::integral T>
requires(!std::same_as<T, bool>) void read_value(Tokens& t, const Path& at, T& v) {
  if (t.token == Token::Unsigned) {
    if (t.unsigned_value > static_cast<uint64_t>(std::numeric_limits<T>::max()))
      fail(at, "is out of range: " + describe(t));
    v = static_cast<T>(t.unsigned_value);
  } else if (t.token == Token::Negative) {
    if constexpr (std::is_unsigned_v<T>) fail(at, "must not be negative, got " + describe(t));
    else if (t.negative_value < static_cast<int64_t>(std::numeric_limits<T>::min()))
      fail(at, "is out of range: " + describe(t));
    v = static_cast<T>(t.negative_value);
  } else {
    fail(at, std::string("expected ") + (std::is_unsigned_v<T> ? "an unsigned integer" : "an integer") + ", got " +
                 describe(t));
  }
}

template <class A, class B>
void read_value(Tokens& t, const Path& at, std::pair<A, B>& v) {
  size_t n = read_elements(t, at, "expected a pair [a, b]", [&](size_t i, const Path& item) {
    if (i == 0) read_value(t, item, v.first);
    else if (i == 1) read_value(t, item, v.second);
    else fail(at, "expected a pair [a, b], got an array of more than 2");
  });
  if (n != 2) fail(at, "expected a pair [a, b], got an array of " + std::to_string(n));
}

// The most elements the reader takes where the writer keeps a bound (a
// stack: 256 recorded frames, each expanded into at most 65 with the frames
// inlined into it, symbolizer.cpp; a device's timeline: 512 points), with
// room to spare. An input past it was not written by cudaleak, and reading it
// would take memory without bound.
template <class T>
inline constexpr size_t kMaxElements = SIZE_MAX;
template <>
inline constexpr size_t kMaxElements<Frame> = 256 * 65;
template <>
inline constexpr size_t kMaxElements<TimelinePoint> = 1024;

template <class T>
void read_value(Tokens& t, const Path& at, std::vector<T>& v) {
  v.clear();
  read_elements(t, at, "expected an array", [&](size_t i, const Path& item) {
    if (i >= kMaxElements<T>)
      fail(at, "has more than " + std::to_string(kMaxElements<T>) + " elements; cudaleak writes far fewer");
    read_value(t, item, v.emplace_back());
  });
}

// Maps are objects keyed by a string or an enum's names.
template <class K, class T>
void read_value(Tokens& t, const Path& at, std::map<K, T>& v) {
  if (t.token != Token::BeginObject) fail(at, "expected an object, got " + describe(t));
  v.clear();
  while (t.next() == Token::Key) {
    std::string text(t.text);
    const Path item{&at, text.c_str()};
    K key{};
    if constexpr (std::is_enum_v<K>) {
      if (!parse_name(text, key))
        fail(item, std::string("unknown ") + noun_of(K{}) + " \"" + text + "\" (docs/report-format.md lists them)");
    } else {
      key = text;
    }
    t.next();
    read_value(t, item, v[key]);
  }
}

// One member, the source on its key: read into v's field of that name
// (marked in `seen`), or skipped when no field has that name.
template <Described T>
void read_member(Tokens& t, const Path& at, T& v, uint64_t& seen) {
  Match match(t, at, t.text, seen);
  fields(match, v);
  if (!match.matched()) {
    t.next();
    skip_value(t);
  }
}

// What needs every member read (Finish); `seen` as read_member left it.
template <Described T>
void finish_object(const Path& at, T& v, uint64_t seen) {
  Finish finish(at, seen);
  fields(finish, v);
}

template <Described T>
void read_value(Tokens& t, const Path& at, T& v) {
  if (t.token != Token::BeginObject) fail(at, "expected an object, got " + describe(t));
  uint64_t seen = 0;
  while (t.next() == Token::Key) read_member(t, at, v, seen);
  finish_object(at, v, seen);
}

template <class A, class B>
void write_value(Emitter& e, const std::pair<A, B>& v) {
  e.begin_array();
  write_value(e, v.first);
  write_value(e, v.second);
  e.end_array();
}

template <class T>
void write_value(Emitter& e, const std::vector<T>& v) {
  e.begin_array();
  for (const T& x : v) write_value(e, x);
  e.end_array();
}

template <class K, class T>
void write_value(Emitter& e, const std::map<K, T>& v) {
  e.begin_object();
  if constexpr (std::is_enum_v<K>) {
    std::vector<std::pair<std::string_view, const T*>> by_name;  // a document keeps its keys sorted
    for (const auto& [key, x] : v) by_name.emplace_back(name_of(key), &x);
    std::sort(by_name.begin(), by_name.end());
    for (const auto& [name, x] : by_name) {
      e.key(name);
      write_value(e, *x);
    }
  } else {
    for (const auto& [key, x] : v) {
      e.key(key);
      write_value(e, x);
    }
  }
  e.end_object();
}

// The writer walks the same field list as the reader; it only reads the
// object, so dropping const here changes nothing.
template <Described T>
void write_value(Emitter& e, const T& v) {
  // Never destroyed: the preload writes its exit report after static
  // destructors have run.
  static const std::vector<size_t>& order = *new std::vector<size_t>([&] {
    std::vector<const char*> keys;
    KeyLister lister(keys);
    fields(lister, const_cast<T&>(v));
    std::vector<size_t> o(keys.size());
    for (size_t i = 0; i < o.size(); ++i) o[i] = i;
    std::stable_sort(o.begin(), o.end(), [&](size_t a, size_t b) { return std::string_view(keys[a]) < keys[b]; });
    return o;
  }());
  e.begin_object();
  for (size_t i : order) {
    Writer writer(e, i);
    fields(writer, const_cast<T&>(v));
  }
  e.end_object();
}

}  // namespace cudaleak::report::schema
