// XLA's out-of-memory explained from JAX's own view of the device
// (docs/python.md#jax): the arrays of one line that grew until the pool was
// full, a jitted function whose own buffers do not fit, a pool limited to a
// share of the device the program outgrew, a pool in pieces. Other
// frameworks and processes on the device are told by diagnose() as for any
// failure.
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

// "2.0 GiB in 2 arrays from keep (train.py:12), the largest f32[16384,16384]
// (1.0 GiB)"; "... arrays of f32[1024] (no line: ...)" without a stack.
std::string jax_line_text(const JaxLine& line);
// The same without its bytes and count: " from keep (train.py:12), the
// largest ..." (a job's ranks each count their own).
std::string jax_line_origin(const JaxLine& line);
// What makes two devices' lines one: the user's frame, else the shape.
std::string jax_line_key(const JaxLine& line);

// "XLA's pool 60.0 GiB in use of its 60.0 GiB limit (peak 60.0 GiB), largest
// free block 12.0 MiB; live arrays 59.0 GiB in 59"
std::string jax_pool_text(const report::JaxDevice& device);

// "799992 arrays from <module> (train.py:23) hold no memory (...): their
// computation failed ...": one text per group whose arrays hold none.
std::vector<std::string> jax_no_memory_texts(const report::JaxDevice& device);

// The causes of a JAX event (e.has_jax), appended to `out` unsorted.
void diagnose_jax(const report::OomEvent& e, std::vector<report::Diagnosis>& out);

}  // namespace cudaleak::oom
