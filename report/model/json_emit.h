// Writes JSON text as it walks the model, without building a document first:
// a report of a million allocations costs its own text, not a tree of a
// million nodes (1 KB each). The text is byte for byte what nlohmann's dump
// writes for the same document (members in key order, the same indentation,
// numbers and escapes), so files written before and after compare equal.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaleak::report::schema {

class Emitter {
 public:
  // Takes the text written so far (about 1 MiB at a time), so that a large
  // document is never held whole; flush() hands over the rest.
  using Sink = std::function<void(std::string_view)>;

  // indent < 0: compact, as dump(-1); else that many spaces per level.
  Emitter(std::string& out, int indent, Sink sink = {}) : out_(out), indent_(indent), sink_(std::move(sink)) {}
  void flush();

  void value(bool v) { element(), out_ += v ? "true" : "false"; }
  void value(uint64_t v);
  void value(int64_t v);
  void string(std::string_view s);  // quoted and escaped; invalid UTF-8 becomes U+FFFD

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  void key(std::string_view k);  // the member's value follows

 private:
  void element();  // before any value: separator, newline and indentation
  void open(char bracket);
  void close(char bracket);
  void newline(size_t depth);
  void quoted(std::string_view s);

  std::string& out_;
  int indent_;
  Sink sink_;
  std::vector<uint32_t> counts_;  // elements written so far, per open level
  bool after_key_ = false;
};

}  // namespace cudaleak::report::schema
