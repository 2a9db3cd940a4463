#include "report/model/json_tokens.h"

#include <array>
#include <charconv>
#include <cstdio>

#include "report/model/format_error.h"

namespace cudaleak::report::schema {

namespace {

constexpr size_t kMaxDepth = 512;  // deeper than any report; bounds the reader's recursion
constexpr size_t kMaxNumberLength = 1024;

// Bytes a string may hold as they are: printable ASCII but the quote and the
// backslash. Everything else takes the slow path (escapes, UTF-8, errors).
constexpr std::array<bool, 256> kPlain = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[size_t(c)] = c != '"' && c != '\\';
  return plain;
}();

void append_utf8(std::string& s, uint32_t cp) {
  if (cp < 0x80) {
    s += char(cp);
  } else if (cp < 0x800) {
    s += char(0xC0 | cp >> 6);
    s += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    s += char(0xE0 | cp >> 12);
    s += char(0x80 | (cp >> 6 & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  } else {
    s += char(0xF0 | cp >> 18);
    s += char(0x80 | (cp >> 12 & 0x3F));
    s += char(0x80 | (cp >> 6 & 0x3F));
    s += char(0x80 | (cp & 0x3F));
  }
}

}  // namespace

TextTokens::TextTokens(std::streambuf* in, std::function<void(uint64_t)> progress, size_t chunk)
    : in_(in), progress_(std::move(progress)), buffer_(chunk ? chunk : 1) {
  base_ = p_ = end_ = buffer_.data();
}

TextTokens::TextTokens(std::string_view text) : base_(text.data()), p_(text.data()), end_(text.data() + text.size()) {}

bool TextTokens::fill() {
  if (!in_) return false;
  consumed_ += uint64_t(end_ - base_);
  std::streamsize n = in_->sgetn(buffer_.data(), std::streamsize(buffer_.size()));
  p_ = buffer_.data();
  end_ = p_ + (n > 0 ? n : 0);
  if (progress_ && n > 0) progress_(consumed_ + uint64_t(n));
  return n > 0;
}

void TextTokens::error(const std::string& reason) const {
  throw SyntaxError(reason + " at byte " + std::to_string(consumed_ + uint64_t(p_ - base_)));
}

std::string TextTokens::show(int c) const {
  if (c < 0) return "the end of the input";
  if (c >= 0x20 && c < 0x7F) return std::string("'") + char(c) + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02x", unsigned(c));
  return buf;
}

int TextTokens::skip_space() {
  for (;;) {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    if (p_ != end_) return static_cast<unsigned char>(*p_);
    if (!fill()) return -1;
  }
}

Token TextTokens::next() {
  int c = skip_space();
  switch (state_) {
    case State::Done: return token = Token::End;
    case State::Start:
      state_ = State::Value;
      if (c == 0xEF) {  // a byte order mark
        for (unsigned char b : {0xEF, 0xBB, 0xBF}) {
          if (peek() != b) error("unexpected " + show(peek()) + " at the start");
          ++p_;
        }
        c = skip_space();
      }
      return value(c);
    case State::Value: return value(c);
    case State::FirstElement:
      if (c != ']') return value(c);
      break;
    case State::FirstMember:
      if (c != '}') goto member;
      break;
    case State::AfterValue:
      if (stack_.empty()) {
        if (c >= 0) error("unexpected " + show(c) + " after the document");
        state_ = State::Done;
        return token = Token::End;
      }
      if (c == ',') {
        ++p_;
        c = skip_space();
        if (stack_.back()) goto member;
        return value(c);
      }
      if (c != (stack_.back() ? '}' : ']'))
        error(std::string("expected ',' or '") + (stack_.back() ? '}' : ']') + "', got " + show(c));
      break;
    case State::Member:
    member:
      if (c != '"') error("expected a member name in quotes, got " + show(c));
      ++p_;
      string();
      if ((c = skip_space()) != ':') error("expected ':' after a member name, got " + show(c));
      ++p_;
      state_ = State::Value;
      text = scratch_;
      return token = Token::Key;
  }
  // A container closes: c is its '}' or ']'.
  ++p_;
  bool object = stack_.back();
  stack_.pop_back();
  state_ = State::AfterValue;
  return token = object ? Token::EndObject : Token::EndArray;
}

void TextTokens::open(bool object) {
  if (stack_.size() >= kMaxDepth) error("nested deeper than " + std::to_string(kMaxDepth) + " levels");
  stack_.push_back(object);
}

Token TextTokens::value(int c) {
  switch (c) {
    case '{':
      open(true);
      ++p_;
      state_ = State::FirstMember;
      return token = Token::BeginObject;
    case '[':
      open(false);
      ++p_;
      state_ = State::FirstElement;
      return token = Token::BeginArray;
    case '"':
      ++p_;
      string();
      text = scratch_;
      state_ = State::AfterValue;
      return token = Token::String;
    case 't': return literal("true", Token::True);
    case 'f': return literal("false", Token::False);
    case 'n': return literal("null", Token::Null);
    default:
      if (c == '-' || (c >= '0' && c <= '9')) {
        Token t = number();
        state_ = State::AfterValue;
        return token = t;
      }
      error("expected a value, got " + show(c));
  }
}

Token TextTokens::literal(const char* word, Token t) {
  for (const char* w = word; *w; ++w) {
    int c = peek();
    if (c != static_cast<unsigned char>(*w))
      error(std::string("invalid literal (expected '") + word + "'), got " + show(c));
    ++p_;
  }
  state_ = State::AfterValue;
  return token = t;
}

void TextTokens::string() {
  scratch_.clear();
  for (;;) {
    const char* s = p_;
    while (s != end_ && kPlain[static_cast<unsigned char>(*s)]) ++s;
    scratch_.append(p_, size_t(s - p_));
    p_ = s;
    int c = peek();  // refills at the end of a chunk
    if (c < 0) error("unexpected end of input in a string");
    if (kPlain[size_t(c)]) continue;
    ++p_;
    if (c == '"') return;
    if (c == '\\') {
      escape();
    } else if (c < 0x20) {
      --p_;
      error("control character " + show(c) + " in a string (write it as \\u00XX)");
    } else {
      utf8(static_cast<unsigned char>(c));
    }
  }
}

void TextTokens::escape() {
  auto hex4 = [&] {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      int c = peek();
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) error("expected four hex digits after \\u, got " + show(c));
      ++p_;
      v = v << 4 | uint32_t(d);
    }
    return v;
  };
  int c = peek();
  if (c < 0) error("unexpected end of input in a string");
  ++p_;
  switch (c) {
    case '"': scratch_ += '"'; return;
    case '\\': scratch_ += '\\'; return;
    case '/': scratch_ += '/'; return;
    case 'b': scratch_ += '\b'; return;
    case 'f': scratch_ += '\f'; return;
    case 'n': scratch_ += '\n'; return;
    case 'r': scratch_ += '\r'; return;
    case 't': scratch_ += '\t'; return;
    case 'u': {
      uint32_t cp = hex4();
      if (cp >= 0xDC00 && cp <= 0xDFFF) error("a low surrogate \\u escape without a high one");
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (peek() != '\\') error("a high surrogate \\u escape without a low one");
        ++p_;
        if (peek() != 'u') error("a high surrogate \\u escape without a low one");
        ++p_;
        uint32_t low = hex4();
        if (low < 0xDC00 || low > 0xDFFF) error("a high surrogate \\u escape without a low one");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      append_utf8(scratch_, cp);
      return;
    }
    default: --p_; error("invalid escape \\" + show(c) + " in a string");
  }
}

// A UTF-8 sequence after its lead byte, checked as RFC 3629 says: no
// overlong forms, no surrogates, nothing past U+10FFFF.
void TextTokens::utf8(unsigned char lead) {
  int more = 0;
  unsigned char low = 0x80, high = 0xBF;  // range of the first continuation byte
  if (lead >= 0xC2 && lead <= 0xDF) more = 1;
  else if (lead >= 0xE0 && lead <= 0xEF) more = 2, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
  else if (lead >= 0xF0 && lead <= 0xF4) more = 3, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
  else error("invalid UTF-8 in a string (" + show(lead) + ")");
  scratch_ += char(lead);
  for (int i = 0; i < more; ++i) {
    int c = peek();
    if (c < low || c > high) error("invalid UTF-8 in a string (" + show(c) + " after " + show(lead) + ")");
    ++p_;
    scratch_ += char(c);
    low = 0x80, high = 0xBF;
  }
}

Token TextTokens::number() {
  // The characters a number may have, read where they lie when the number
  // ends inside the chunk, else gathered across chunks; then checked against
  // the grammar -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  auto in_number = [](char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
  };
  const char* q = p_;
  while (q != end_ && in_number(*q)) ++q;
  if (q != end_ || !in_) {
    text = std::string_view(p_, size_t(q - p_));
    p_ = q;
  } else {
    scratch_.clear();
    for (int c; (c = peek()) >= 0 && in_number(char(c)); ++p_) {
      if (scratch_.size() >= kMaxNumberLength)
        error("a number longer than " + std::to_string(kMaxNumberLength) + " characters");
      scratch_ += char(c);
    }
    text = scratch_;
  }
  const char* first = text.data();
  const char* last = first + text.size();
  const char* c = first;
  auto digits = [&] {
    const char* start = c;
    while (c != last && *c >= '0' && *c <= '9') ++c;
    if (c == start) error("invalid number '" + std::string(text.substr(0, 64)) + "'");
  };
  bool negative = c != last && *c == '-';
  c += negative;
  if (c != last && *c == '0') ++c;
  else digits();
  bool integer = true;
  if (c != last && *c == '.') {
    ++c, integer = false;
    digits();
  }
  if (c != last && (*c == 'e' || *c == 'E')) {
    ++c, integer = false;
    if (c != last && (*c == '+' || *c == '-')) ++c;
    digits();
  }
  if (c != last) error("invalid number '" + std::string(text.substr(0, 64)) + "'");
  if (integer) {
    uint64_t magnitude = 0;
    if (std::from_chars(first + negative, last, magnitude).ec == std::errc()) {
      if (!negative) {
        unsigned_value = magnitude;
        return Token::Unsigned;
      }
      if (magnitude <= uint64_t(1) << 63) {
        negative_value = magnitude == uint64_t(1) << 63 ? INT64_MIN : -int64_t(magnitude);
        return Token::Negative;
      }
    }
  }
  // Past 64 bits, a fraction or an exponent: a double, as other readers take it.
  if (std::from_chars(first, last, double_value).ec == std::errc::result_out_of_range) {
    size_t e = text.find_first_of("eE");
    if (e == std::string::npos || text[e + 1] != '-') {
      std::string shown(text.substr(0, 64));
      error("number overflow parsing '" + (text.size() > 64 ? shown.substr(0, 61) + "..." : shown) + "'");
    }
    double_value = negative ? -0.0 : 0.0;  // underflow
  }
  return Token::Double;
}

TreeTokens::TreeTokens(const nlohmann::json& value) : root_(&value) {}

Token TreeTokens::next() {
  if (!started_) {
    started_ = true;
    return enter(*root_);
  }
  if (open_.empty()) return token = Token::End;
  Open& o = open_.back();
  if (o.at == o.container->end()) {
    bool object = o.container->is_object();
    open_.pop_back();
    return token = object ? Token::EndObject : Token::EndArray;
  }
  if (o.container->is_object() && !o.key_given) {
    o.key_given = true;
    text = o.at.key();
    return token = Token::Key;
  }
  o.key_given = false;
  const nlohmann::json& value = *o.at;
  ++o.at;  // before enter(), which may grow open_
  return enter(value);
}

Token TreeTokens::enter(const nlohmann::json& j) {
  using nlohmann::json;
  switch (j.type()) {
    case json::value_t::object:
    case json::value_t::array:
      open_.push_back(Open{&j, j.begin()});
      return token = j.is_object() ? Token::BeginObject : Token::BeginArray;
    case json::value_t::string: text = j.get_ref<const std::string&>(); return token = Token::String;
    case json::value_t::boolean: return token = j.get<bool>() ? Token::True : Token::False;
    case json::value_t::number_unsigned:
      unsigned_value = j.get<uint64_t>();
      scratch_ = std::to_string(unsigned_value);
      text = scratch_;
      return token = Token::Unsigned;
    case json::value_t::number_integer: {
      int64_t v = j.get<int64_t>();
      scratch_ = std::to_string(v);
      text = scratch_;
      if (v >= 0) {
        unsigned_value = uint64_t(v);
        return token = Token::Unsigned;
      }
      negative_value = v;
      return token = Token::Negative;
    }
    case json::value_t::number_float:
      double_value = j.get<double>();
      scratch_ = j.dump();
      text = scratch_;
      return token = Token::Double;
    default: return token = Token::Null;
  }
}

}  // namespace cudaleak::report::schema
