#include "report/model/json_io.h"

#include "report/model/json_visitors.h"

#include <istream>

namespace cudaleak::report {

using nlohmann::json;
using schema::Path;

std::string to_json(const Report& r, int indent) { return schema::write_text(r, indent) + "\n"; }

void write_json(const Report& r, const std::function<void(std::string_view)>& sink, int indent) {
  std::string buffer;
  schema::Emitter e(buffer, indent, sink);
  schema::write_value(e, r);
  buffer += '\n';
  e.flush();
}


namespace {

// The top level, read member by member in one pass: a value of the wrong type
// or range is remembered rather than thrown at once, so that a file of another
// format or a newer version is named as such wherever its "format" and
// "format_version" members come. Text that is not JSON is an error at once.
Report read_report_from(schema::Tokens& t) {
  Report r;
  r.format.clear();
  r.format_version = 0;
  std::string malformed;
  uint64_t seen = 0;
  const Path root;
  try {
    if (t.next() != schema::Token::BeginObject) throw FormatError("not a cudaleak report");
    while (t.next() == schema::Token::Key) {
      try {
        schema::read_member(t, root, r, seen);
      } catch (const SyntaxError&) {
        throw;
      } catch (const FormatError& e) {
        if (malformed.empty()) malformed = e.what();
        while (t.depth() > 1) t.next();  // to the end of this member's value
      }
    }
    t.next();  // nothing but space may follow
  } catch (const SyntaxError& e) {
    throw FormatError(std::string("not valid JSON (truncated or corrupt?): ") + e.what());
  }
  if (r.format != kFormatName) throw FormatError("not a cudaleak report");
  if (r.format_version < 1) throw FormatError("report has no valid format_version");
  if (r.format_version > kFormatVersion)
    throw FormatError("report format version " + std::to_string(r.format_version) +
                      " is newer than this cudaleak reads (" + std::to_string(kFormatVersion) +
                      "); use a newer cudaleak");
  try {
    if (!malformed.empty()) throw FormatError(malformed);
    schema::finish_object(root, r, seen);
  } catch (const FormatError& e) {
    throw FormatError(std::string("malformed report: ") + e.what());
  }
  return r;
}

}  // namespace

Report from_json(const std::string& text) {
  schema::TextTokens t(text);
  return read_report_from(t);
}

Report read_report(std::istream& in, const ReadProgress& progress) {
  schema::TextTokens t(in.rdbuf(), progress);
  return read_report_from(t);
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
      if (!o.is_object()) schema::fail(Path{&root, "oom"}, "expected an object");
      Path at{&root, "oom"};
      schema::TreeObject reader(o, at);
      reader("device", oom->device);
      reader("request", oom->request);
      reader("monotonic_ns", oom->monotonic_ns);
    }
    return v;
  } catch (const FormatError& e) {
    throw FormatError(std::string("not a PyTorch view: ") + e.what());
  }
}

JaxView jax_view_from_json(const std::string& text, JaxFailureSent* failure) {
  try {
    json j = schema::parse(text);
    JaxView v;
    const Path root;
    schema::read_value(j, root, v);
    if (failure && j.contains("oom")) {
      const json& o = j["oom"];
      Path at{&root, "oom"};
      if (!o.is_object()) schema::fail(at, "expected an object");
      schema::TreeObject reader(o, at);
      failure->present = true;
      reader("repeat", failure->repeat);
      reader("device", failure->device);
      reader("request", failure->request);
      reader("monotonic_ns", failure->monotonic_ns);
      reader("exception", failure->oom.exception);
      reader("message", failure->oom.message);
      reader("compiled", failure->oom.compiled);
      reader("stack", failure->stack);
      for (Frame& f : failure->stack) f.python = true;
      failure->oom.settings = v.settings;
      failure->oom.executables_bytes = v.executables_bytes;
    }
    return v;
  } catch (const FormatError& e) {
    throw FormatError(std::string("not a JAX view: ") + e.what());
  }
}

}  // namespace cudaleak::report
