// A string kept once however many frames name it: the module, function and
// file of a report's frames repeat across thousands of stacks, and a copy in
// each frame made reading a report of 200,000 groups take 640 MB (with this,
// 270 MB). Immutable; assigning interns the new text. Reads like a const
// std::string (and converts to one), so code that reads frames is unchanged.
// Interned text is never freed: the set of distinct names is small, and the
// preload reads it while it writes its exit report, after static destructors.
#pragma once
#include <compare>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace cudaleak::report {

class InternedString {
 public:
  InternedString() = default;
  InternedString(std::string_view s) : text_(intern(s)) {}    // NOLINT: as a std::string converts
  InternedString(const std::string& s) : text_(intern(s)) {}  // NOLINT
  InternedString(const char* s) : text_(intern(s)) {}         // NOLINT

  const std::string& str() const { return text_ ? *text_ : empty_text(); }
  void clear() { text_ = nullptr; }
  operator const std::string&() const { return str(); }  // NOLINT
  operator std::string_view() const { return str(); }    // NOLINT

  bool empty() const { return !text_; }
  size_t size() const { return str().size(); }
  size_t length() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }
  const char* data() const { return str().data(); }
  char operator[](size_t i) const { return str()[i]; }
  char front() const { return str().front(); }
  char back() const { return str().back(); }
  std::string::const_iterator begin() const { return str().begin(); }
  std::string::const_iterator end() const { return str().end(); }
  size_t find(std::string_view s, size_t pos = 0) const { return str().find(s, pos); }
  size_t find(char c, size_t pos = 0) const { return str().find(c, pos); }
  size_t rfind(std::string_view s, size_t pos = std::string::npos) const { return str().rfind(s, pos); }
  size_t rfind(char c, size_t pos = std::string::npos) const { return str().rfind(c, pos); }
  size_t find_first_of(std::string_view s, size_t pos = 0) const { return str().find_first_of(s, pos); }
  size_t find_last_of(std::string_view s, size_t pos = std::string::npos) const { return str().find_last_of(s, pos); }
  bool starts_with(std::string_view s) const { return str().starts_with(s); }
  bool ends_with(std::string_view s) const { return str().ends_with(s); }
  bool contains(std::string_view s) const { return str().find(s) != std::string::npos; }
  std::string substr(size_t pos, size_t n = std::string::npos) const { return str().substr(pos, n); }
  int compare(std::string_view s) const { return str().compare(s); }

  // Equal text is one object: comparing the pointers is comparing the text.
  friend bool operator==(const InternedString& a, const InternedString& b) { return a.text_ == b.text_; }
  friend bool operator==(const InternedString& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const InternedString& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const InternedString& a, const char* b) { return a.str() == b; }
  friend std::strong_ordering operator<=>(const InternedString& a, const InternedString& b) {
    return a.text_ == b.text_ ? std::strong_ordering::equal : a.str() <=> b.str();
  }
  friend std::strong_ordering operator<=>(const InternedString& a, std::string_view b) {
    return std::string_view(a.str()) <=> b;
  }
  friend std::string operator+(const InternedString& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const std::string& a, const InternedString& b) { return a + b.str(); }
  friend std::string operator+(const InternedString& a, const char* b) { return a.str() + b; }
  friend std::string operator+(const char* a, const InternedString& b) { return a + b.str(); }
  friend std::string operator+(const InternedString& a, char b) { return a.str() + b; }
  friend std::string operator+(char a, const InternedString& b) { return a + b.str(); }
  friend std::ostream& operator<<(std::ostream& out, const InternedString& s) { return out << s.str(); }

 private:
  static const std::string* intern(std::string_view s);  // nullptr for ""
  static const std::string& empty_text();
  const std::string* text_ = nullptr;  // nullptr: the empty string
};

}  // namespace cudaleak::report

template <>
struct std::hash<cudaleak::report::InternedString> {
  size_t operator()(const cudaleak::report::InternedString& s) const { return std::hash<std::string>{}(s.str()); }
};
