// JSON form of the report (docs/report-format.md). Writing and reading walk
// one field list per type (json_schema.h) so that they cannot drift apart.
#pragma once
#include <cstdint>
#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "report/model/format_error.h"
#include "report/model/report.h"

namespace cudaleak::report {

std::string to_json(const Report& report, int indent = 1);
// The same text handed to `sink` in pieces of about 1 MiB, never held whole:
// writing a report costs its model, not its text.
void write_json(const Report& report, const std::function<void(std::string_view)>& sink, int indent = 1);

// Parses a report; throws FormatError with a one-line reason for anything that
// is not a cudaleak report of a version this build understands, naming the
// JSON path of a value of the wrong type or range ("$.leaks[3].bytes: ...").
Report from_json(const std::string& text);
// The same from a stream, never holding the whole text: memory follows the
// report's model, not the file's size. progress, when set, is told the bytes
// read so far after each chunk of 1 MiB.
using ReadProgress = std::function<void(uint64_t bytes_read)>;
Report read_report(std::istream& in, const ReadProgress& progress = {});

// What cudaleak_torch.py sends from inside a PyTorch program: a view, and at
// an out-of-memory the request it failed on. Throws FormatError.
struct PyTorchOom {
  int device = 0;
  uint64_t request = 0;
  // When PyTorch's observer ran (CLOCK_MONOTONIC, ns); 0: not sent. Reading
  // the snapshot after it can take seconds.
  uint64_t monotonic_ns = 0;
};
PyTorchView pytorch_view_from_json(const std::string& text, PyTorchOom* oom = nullptr);
// What cudaleak_jax.py sends: a view, and at XLA's out-of-memory the
// failure as it was raised ("oom"). Throws FormatError.
struct JaxFailureSent {
  bool present = false;
  bool repeat = false;  // the same failure raised again: an attempt of the event before
  int device = 0;
  uint64_t request = 0;
  uint64_t monotonic_ns = 0;  // when it was raised (CLOCK_MONOTONIC)
  JaxOom oom;                 // exception, message, compiled (the device is the view's)
  std::vector<Frame> stack;   // the Python frames it was raised in, innermost first
};
JaxView jax_view_from_json(const std::string& text, JaxFailureSent* failure = nullptr);
// cudaleak_cupy.py's numbers (the report's "cupy" section without "when").
CupyPool cupy_pool_from_json(const std::string& text);

}  // namespace cudaleak::report
