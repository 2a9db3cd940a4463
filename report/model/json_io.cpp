#include "json_io.h"

#include "json_visitors.h"

#include <functional>
#include <istream>
#include <iterator>
#include <map>

namespace cudaleak::report {

using nlohmann::json;
using schema::Path;

std::string to_json(const Report& r, int indent) {
  json j;
  schema::write_value(j, r);
  return j.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}


namespace {

// Allocation lists are most of a large report (a million allocations make
// 170 MB of JSON): they are turned into the model while the JSON is parsed
// and never held as JSON, so that memory follows the model, not the file.
// The parser callback tracks where it is; each finished object at
// $.leaks[g].allocations[k] is read through the schema and dropped.
class AllocationDrain {
 public:
  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::key:
        levels_.back().key = parsed.get_ref<const std::string&>();
        return true;
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (event == json::parse_event_t::array_start) start_array();
        levels_.push_back(Level{event == json::parse_event_t::array_start});
        return true;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end: {
        levels_.pop_back();
        bool keep = true;
        if (event == json::parse_event_t::object_end && in_allocations()) {
          size_t group = levels_[1].index, index = levels_[3].index;
          const Path root, leaks{&root, "leaks"}, g{&leaks, nullptr, group}, allocs{&g, "allocations"},
              at{&allocs, nullptr, index};
          schema::read_value(parsed, at, by_group_[group].emplace_back());
          keep = false;
        }
        element_done();
        return keep;
      }
      case json::parse_event_t::value:
        element_done();
        return true;
    }
    return true;
  }

  // Puts the drained allocations back into the groups read from the rest.
  void fill(Report& r) {
    for (auto& [group, allocations] : by_group_)
      if (group < r.leaks.size()) r.leaks[group].allocations = std::move(allocations);
  }

 private:
  struct Level {
    bool array = false;
    size_t index = 0;  // arrays: the element being parsed
    std::string key;   // objects: the member being parsed
  };
  // levels_: root object, "leaks" array, group object, "allocations" array.
  bool in_allocations() const {
    return levels_.size() == 4 && levels_[0].key == "leaks" && levels_[1].array && !levels_[2].array &&
           levels_[2].key == "allocations" && levels_[3].array;
  }
  void start_array() {  // a repeated key replaces what came before, as in the DOM
    if (levels_.size() == 1 && levels_[0].key == "leaks") by_group_.clear();
    if (levels_.size() == 3 && levels_[0].key == "leaks" && levels_[2].key == "allocations")
      by_group_.erase(levels_[1].index);
  }
  void element_done() {
    if (!levels_.empty() && levels_.back().array) ++levels_.back().index;
  }
  std::vector<Level> levels_;
  std::map<size_t, std::vector<Allocation>> by_group_;
};

// A stream read in chunks of 1 MiB, as the input iterator nlohmann's parser
// takes: one pointer step per character (istreambuf_iterator costs a call).
class Chunks {
 public:
  Chunks(std::streambuf* in, const ReadProgress& progress) : in_(in), progress_(progress), buffer_(size_t(1) << 20) {}
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    Iterator() = default;
    explicit Iterator(Chunks* c) : c_(c->p_ != c->end_ || c->fill() ? c : nullptr) {}
    const char& operator*() const { return *c_->p_; }
    Iterator& operator++() {
      if (++c_->p_ == c_->end_ && !c_->fill()) c_ = nullptr;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const Iterator& o) const { return c_ == o.c_; }

   private:
    Chunks* c_ = nullptr;  // nullptr: at the end
  };

 private:
  bool fill() {
    std::streamsize n = in_->sgetn(buffer_.data(), std::streamsize(buffer_.size()));
    p_ = buffer_.data();
    end_ = p_ + (n > 0 ? n : 0);
    read_ += uint64_t(n > 0 ? n : 0);
    if (progress_) progress_(read_);
    return n > 0;
  }
  std::streambuf* in_;
  const ReadProgress& progress_;
  uint64_t read_ = 0;
  std::vector<char> buffer_;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
};

// parse(callback) parses the whole input with nlohmann's parser.
template <class Parse>
Report read_report_with(Parse parse) {
  AllocationDrain drain;
  json j;
  try {
    j = parse(json::parser_callback_t(std::ref(drain)));
  } catch (const FormatError& e) {
    throw FormatError(std::string("malformed report: ") + e.what());
  } catch (const json::exception& e) {
    schema::explain_parse_error(e, " (truncated or corrupt?)");
  }
  const Path root;
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormatName) throw FormatError("not a cudaleak report");
  int version = 0;
  if (j.contains("format_version") && j["format_version"].is_number_integer())
    schema::read_value(j["format_version"], Path{&root, "format_version"}, version);
  if (version < 1) throw FormatError("report has no valid format_version");
  if (version > kFormatVersion)
    throw FormatError("report format version " + std::to_string(version) + " is newer than this cudaleak reads (" +
                      std::to_string(kFormatVersion) + "); use a newer cudaleak");
  Report r;
  try {
    schema::read_value(j, root, r);
  } catch (const FormatError& e) {
    throw FormatError(std::string("malformed report: ") + e.what());
  }
  drain.fill(r);
  return r;
}

}  // namespace

Report from_json(const std::string& text) {
  return read_report_with([&](json::parser_callback_t cb) { return json::parse(text, cb); });
}

Report read_report(std::istream& in, const ReadProgress& progress) {
  return read_report_with([&](json::parser_callback_t cb) {
    Chunks chunks(in.rdbuf(), progress);
    return json::parse(Chunks::Iterator(&chunks), Chunks::Iterator(), cb);
  });
}

CupyPool cupy_pool_from_json(const std::string& text) {
  try {
    CupyPool c;
    schema::read_value(schema::parse(text), Path{}, c);
    return c;
  } catch (const FormatError& e) {
    throw FormatError(std::string("not CuPy pool numbers: ") + e.what());
  }
}

PyTorchView pytorch_view_from_json(const std::string& text, PyTorchOom* oom) {
  try {
    json j = schema::parse(text);
    PyTorchView v;
    const Path root;
    schema::read_value(j, root, v);
    if (oom && j.contains("oom")) {
      const json& o = j["oom"];
      if (!o.is_object()) schema::fail(Path{&root, "oom"}, "expected an object, got " + schema::describe(o));
      Path at{&root, "oom"};
      schema::Reader reader(o, at);
      reader("device", oom->device);
      reader("request", oom->request);
    }
    return v;
  } catch (const FormatError& e) {
    throw FormatError(std::string("not a PyTorch view: ") + e.what());
  }
}

}  // namespace cudaleak::report
