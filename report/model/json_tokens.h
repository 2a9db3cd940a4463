// JSON as a stream of tokens, in document order, for the schema's reader
// (json_visitors.h). Two sources: TextTokens lexes text as it arrives, so a
// report of a million allocations is turned into the model without ever being
// held as text or as a JSON tree (memory follows the model, not the file);
// TreeTokens walks a parsed nlohmann::json, for the small documents that are
// first looked at as a whole (crash captures, baselines).
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace cudaleak::report::schema {

enum class Token : uint8_t {
  BeginObject,
  EndObject,
  BeginArray,
  EndArray,
  Key,  // a member name; the member's value follows
  String,
  Unsigned,  // an integer >= 0 that fits 64 bits
  Negative,  // an integer < 0 that fits 64 bits
  Double,    // any other number (fraction, exponent, or past 64 bits)
  True,
  False,
  Null,
  End,  // after the document
};

class Tokens {
 public:
  virtual ~Tokens() = default;
  // Moves to the next token and returns it. TextTokens throws FormatError
  // ("<reason> at byte N") for text that is not JSON.
  virtual Token next() = 0;
  // Containers open around the current token (1 inside the top object).
  virtual size_t depth() const = 0;

  Token token = Token::End;
  std::string_view text;  // Key and String: the decoded text; numbers: as written
  uint64_t unsigned_value = 0;
  int64_t negative_value = 0;
  double double_value = 0;
};

// Reads from a stream in chunks (1 MiB unless told); progress, when set, is
// told the bytes read so far after each chunk. A UTF-8 byte order mark at the
// start is skipped, as other readers do.
class TextTokens final : public Tokens {
 public:
  explicit TextTokens(std::streambuf* in, std::function<void(uint64_t)> progress = {}, size_t chunk = size_t(1) << 20);
  explicit TextTokens(std::string_view text);
  Token next() override;
  size_t depth() const override { return stack_.size(); }

 private:
  enum class State : uint8_t { Start, Value, FirstMember, Member, FirstElement, AfterValue, Done };
  int peek() {
    if (p_ == end_ && !fill()) return -1;
    return static_cast<unsigned char>(*p_);
  }
  bool fill();
  int skip_space();
  Token value(int c);
  void string();  // into scratch_, after the opening quote
  void escape();
  void utf8(unsigned char lead);
  Token number();
  Token literal(const char* word, Token token);
  void open(bool object);
  [[noreturn]] void error(const std::string& reason) const;
  std::string show(int c) const;

  std::streambuf* in_ = nullptr;
  std::function<void(uint64_t)> progress_;
  std::vector<char> buffer_;
  const char* base_ = nullptr;  // the start of what p_ walks: buffer_ or the text
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  uint64_t consumed_ = 0;    // bytes before base_
  std::vector<bool> stack_;  // true: an object
  State state_ = State::Start;
  std::string scratch_;
};

class TreeTokens final : public Tokens {
 public:
  explicit TreeTokens(const nlohmann::json& value);
  Token next() override;
  size_t depth() const override { return open_.size(); }

 private:
  Token enter(const nlohmann::json& j);
  struct Open {
    const nlohmann::json* container;
    nlohmann::json::const_iterator at;
    bool key_given = false;  // objects: the current member's key was returned
  };
  const nlohmann::json* root_;
  bool started_ = false;
  std::vector<Open> open_;
  std::string scratch_;
};

}  // namespace cudaleak::report::schema
