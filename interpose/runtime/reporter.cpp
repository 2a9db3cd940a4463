#include "reporter.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <mutex>

#include "lifecycle.h"
#include "log.h"
#include "json_io.h"
#include "report_path.h"
#include "text_summary.h"
#include "symbols/modules.h"
#include "symbols/symbolizer.h"
#include "../track/tracker.h"

namespace cudaleak {

namespace {

std::mutex g_report_mutex;
std::atomic<unsigned> g_sequence{0};

const char* reason_name(Reason r) {
  switch (r) {
    case Reason::Exit: return "exit";
    case Reason::Signal: return "signal";
    case Reason::Crash: return "crash";
  }
  return "exit";
}

bool write_file(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
  bool ok = done == text.size() && close(fd) == 0;
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

void print(const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(STDERR_FILENO, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
}

bool write_locked(Reason reason) {
  const Options& opt = options();
  report::RawSnapshot raw = tracker::snapshot();
  std::unique_ptr<report::FrameResolver> resolver =
      opt.symbolize ? symbols::make_process_symbolizer() : symbols::make_module_resolver();
  report::BuildOptions build;
  build.max_allocations = size_t(opt.max_allocations);
  report::Report r = report::build_report(raw, tracker::stack, resolver.get(), build);
  r.symbolized = opt.symbolize;
  r.tool_version = CUDALEAK_VERSION;
  r.reason = reason_name(reason);
  r.timestamp = std::time(nullptr);
  r.process = symbols::current_process();
  r.modules = symbols::loaded_modules();

  unsigned n = g_sequence.fetch_add(1);
  std::string path = report::expand_report_path(opt.output, r.process.pid, n);
  bool written = write_file(path, report::to_json(r));
  if (!written) log_message("cannot write report %s: %s", path.c_str(), std::strerror(errno));

  if (reason == Reason::Signal) {
    log_message("snapshot of %llu live resources written to %s", static_cast<unsigned long long>(r.summary.leaked_count),
                path.c_str());
  } else if (opt.print_summary) {
    report::TextOptions text;
    text.max_groups = size_t(opt.summary_groups);
    text.report_path = written ? path : "";
    print(report::render_text(r, text));
  }
  return written;
}

}  // namespace

bool write_report(Reason reason) {
  if (!cuda_seen()) return false;
  int saved = errno;
  bool written = false;
  try {
    if (reason == Reason::Crash) {
      // The crashing thread may hold the lock (crash while reporting): never wait.
      std::unique_lock lock(g_report_mutex, std::try_to_lock);
      if (lock.owns_lock()) written = write_locked(reason);
    } else {
      std::lock_guard lock(g_report_mutex);
      written = write_locked(reason);
    }
  } catch (...) {
    log_message("internal error while writing the report; no report written");
  }
  errno = saved;
  return written;
}

void reset_reporter_in_child() { g_sequence = 0; }

}  // namespace cudaleak
