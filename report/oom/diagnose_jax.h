// XLA's out-of-memory explained from JAX's own view of the device
// (docs/python.md#jax): the arrays of one line that grew until the pool was
// full, a jitted function whose own buffers do not fit, a pool limited to a
// share of the device the program outgrew, a pool in pieces. Other
// frameworks and processes on the device are decided by diagnose() as for
// any failure; the words are report/render/jax_words.h's.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::oom {

// JAX's array groups of one device folded by the user's line (the frame
// classifier's user_frame: JAX's and the libraries' frames skipped), biggest
// first; groups without a stack stay one per shape.
struct JaxLine {
  uint64_t bytes = 0, count = 0, largest_bytes = 0;
  std::string shape;                             // of the largest
  const report::JaxArrayGroup* group = nullptr;  // the biggest group folded in: its stack names the line
};
std::vector<JaxLine> jax_lines(const report::JaxDevice& device);

// What makes two devices' lines one: the user's frame, else the shape.
std::string jax_line_key(const JaxLine& line);

// The causes of a JAX event (e.has_jax), appended to `out` unsorted.
void diagnose_jax(const report::OomEvent& e, std::vector<report::Diagnosis>& out);

}  // namespace cudaleak::oom
