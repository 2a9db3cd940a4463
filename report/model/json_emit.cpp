#include "report/model/json_emit.h"

#include <charconv>
#include <nlohmann/json.hpp>

namespace cudaleak::report::schema {

void Emitter::newline(size_t depth) {
  if (indent_ < 0) return;
  out_ += '\n';
  out_.append(depth * static_cast<size_t>(indent_), ' ');
}

void Emitter::flush() {
  if (!sink_ || out_.empty()) return;
  sink_(out_);
  out_.clear();
}

void Emitter::element() {
  if (sink_ && out_.size() >= (1u << 20)) flush();
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (counts_.empty()) return;
  if (counts_.back()++ > 0) out_ += ',';
  newline(counts_.size());
}

void Emitter::key(std::string_view k) {
  element();
  quoted(k);
  out_ += indent_ < 0 ? ":" : ": ";
  after_key_ = true;
}

void Emitter::open(char bracket) {
  element();
  out_ += bracket;
  counts_.push_back(0);
}

void Emitter::close(char bracket) {
  const uint32_t n = counts_.back();
  counts_.pop_back();
  if (n > 0) newline(counts_.size());
  out_ += bracket;
}

void Emitter::value(uint64_t v) {
  element();
  char buf[24];
  out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void Emitter::value(int64_t v) {
  element();
  char buf[24];
  out_.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

void Emitter::string(std::string_view s) {
  element();
  quoted(s);
}

void Emitter::quoted(std::string_view s) {
  // Most strings are plain printable ASCII: written as they are. Anything
  // else takes nlohmann's escaping, which is what the reader expects.
  bool plain = true;
  for (unsigned char c : s)
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
      plain = false;
      break;
    }
  if (plain) {
    out_ += '"';
    out_ += s;
    out_ += '"';
    return;
  }
  out_ += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace cudaleak::report::schema
