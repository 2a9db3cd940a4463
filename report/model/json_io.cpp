#include "json_io.h"

#include "json_visitors.h"

namespace cudaleak::report {

using nlohmann::json;
using schema::Path;

std::string to_json(const Report& r, int indent) {
  json j;
  schema::write_value(j, r);
  return j.dump(indent, ' ', false, json::error_handler_t::replace) + "\n";
}


Report from_json(const std::string& text) {
  json j = schema::parse(text, " (truncated or corrupt?)");
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
  return r;
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
