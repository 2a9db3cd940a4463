// JAX's view and XLA's out-of-memory causes in words: a user line's arrays,
// XLA's pool, arrays that hold no memory, and the sentences of the causes
// report/oom/diagnose_jax.h decides.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"
#include "report/oom/diagnose_jax.h"

namespace cudaleak::render {

// "2.0 GiB in 2 arrays from keep (train.py:12), the largest f32[16384,16384]
// (1.0 GiB)"; "... arrays of f32[1024] (no line: ...)" without a stack.
std::string jax_line_text(const oom::JaxLine& line);
// The same without its bytes and count: " from keep (train.py:12), the
// largest ..." (a job's ranks each count their own).
std::string jax_line_origin(const oom::JaxLine& line);

// "XLA's pool 60.0 GiB in use of its 60.0 GiB limit (peak 60.0 GiB), largest
// free block 12.0 MiB; live arrays 59.0 GiB in 59"
std::string jax_pool_text(const report::JaxDevice& device);

// "799992 arrays from <module> (train.py:23) hold no memory (...): their
// computation failed ...": one text per group whose arrays hold none.
std::vector<std::string> jax_no_memory_texts(const report::JaxDevice& device);

// The sentence of a cause told from JAX's view (form Jax or
// JaxRequestOverPool, or compiled_peak) of event `e`.
std::string jax_cause_text(const report::OomEvent& e, const report::Diagnosis& d);

}  // namespace cudaleak::render
