// The text of a job of many ranks (a merged report of ranked processes), as
// report/analyze/job_fold.h folds it: the ranks unlike the rest first, one
// story per out-of-memory that several ranks share, the other ranks at that
// moment as a distribution, and the frameworks' views folded alike. A fold of
// one rank reads as a single process's report does.
#pragma once
#include <string>
#include <vector>

#include "report/analyze/job.h"
#include "report/model/report.h"

namespace cudaleak::render {

// Where one other rank stood at a failure: " on device 1 held 2.0 GiB",
// " on device 0 had ended at 5.32 s", " had not allocated yet".
std::string rank_moment_text(const report::RankMoment& m);
// "  job: ranks 0-1023 of 1024 (torchrun) on 128 hosts (node[000-127]); no report from rank 5"
std::string job_line(const report::JobShape& job);
// "ranks unlike the others" with their evidence; "" when none is.
std::string odd_ranks_text(const report::Report& merged, const std::string& prefix);
// Every out-of-memory story, first failure first; marks the events told.
std::string folded_ooms_text(const report::Report& merged, const std::string& prefix, std::vector<bool>& told);
// PyTorch's views by what they hold (at an out-of-memory: told by its story);
// `gate_words`: what the gate made of the live tensors.
std::string folded_pytorch_text(const report::Report& merged, const std::string& prefix, const std::string& gate_words);
// The stories of several ranks as the HTML page shows them: the story's
// first event (its full card), the others (their cards on demand), and the
// sentences the text says of it.
struct StoryText {
  size_t first = 0;
  std::vector<size_t> members;  // the story's other events
  std::string title, across, others;
};
std::vector<StoryText> story_texts(const report::Report& merged);
// odd_ranks_text's lines, without the heading.
std::vector<std::string> odd_rank_lines(const report::Report& merged);
// JAX's devices by the moment they were read (at an out-of-memory: told by
// its story), each user line's arrays across the ranks.
std::string folded_jax_text(const report::Report& merged, const std::string& prefix);
// CuPy's pools by the moment they were read.
std::string folded_cupy_text(const report::Report& merged, const std::string& prefix);

}  // namespace cudaleak::render
