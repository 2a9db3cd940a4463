// What a process of a `cudaleak run` leaves the launcher in the run's gate
// directory (CUDALEAK_GATE_DIR; nothing without it):
//   <pid>.live  written when the process first uses CUDA: its command and rank;
//   <pid>.gate  written with its final report: the verdict and the report;
//   <pid>.json  that report, where its own path is no regular file;
//   <pid>.unseen  written by a library of the process that knows its CUDA
//               calls go past cudaleak (the simulated driver refusing a
//               statically linked runtime): one line saying why. Its exit
//               report then cannot pass the gate and is never green.
// A .live without a .gate is a process that used CUDA and ended without its
// report (SIGKILL, the kernel's out-of-memory killer): the launcher says so
// and the gate cannot pass it as clean.
#pragma once
#include <string>

namespace cudaleak::launcher_files {

// The first-use observer (base/state.h): writes <pid>.live.
void mark_cuda_use();
// At start-up: a <pid>.live of this pid is this process's image before it
// called exec, whose resources went with it; it gets no report.
void forget_replaced_image();
// A report written where the launcher cannot read it back (a device such as
// /dev/null, a FIFO, stdout) is also left in the gate directory for the
// launcher's JUnit and SARIF files: returns that copy's path, else "".
std::string copy_for_launcher(const std::string& report_path, const std::string& json);
// Why this process's CUDA use went past cudaleak, from <pid>.unseen; "" when
// nothing said so.
std::string unseen_reason();
// The verdict ("pass", "fail", "error") and the report's path; for an error,
// why (`problem`), and where the report should have gone when it could not be
// written (`unwritten`), so that the launcher does not take a previous run's
// file there for this one's.
void record_verdict(const std::string& status, const std::string& report_path, const std::string& problem = "",
                    const std::string& unwritten = "");

}  // namespace cudaleak::launcher_files
