#include "report/cli/load.h"

#include <spdlog/spdlog.h>

#include <ext/stdio_filebuf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include <cstdio>
#include <istream>
#include <iterator>

#include "report/capture/crash_report.h"
#include "report/cli/crash_reports.h"
#include "report/io/input_file.h"
#include "common/safe_output.h"
#include "report/model/json_io.h"
#include "report/oom/oom_story.h"
#include "report/render/text_report.h"

namespace cudaleak::cli {

namespace {

// "cudaleak: reading big.json: 45% of 165 MiB" on a terminal, for reads that
// take longer than 2 s; nothing when stderr is not a terminal.
class ProgressLine {
 public:
  ProgressLine(const std::string& path, uint64_t size)
      : path_(path), size_(size), start_(std::chrono::steady_clock::now()), tty_(isatty(STDERR_FILENO)) {}
  void update(uint64_t done) {
    if (!tty_ || !size_ || std::chrono::steady_clock::now() - start_ < std::chrono::seconds(2)) return;
    std::fprintf(stderr, "\rcudaleak: reading %s: %3d%% of %s", path_.c_str(), int(done * 100 / size_),
                 cudaleak::format_bytes(size_).c_str());
    shown_ = true;
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  std::string path_;
  uint64_t size_;
  std::chrono::steady_clock::time_point start_;
  bool tty_;
  bool shown_ = false;
};

}  // namespace

std::optional<report::Report> load_report(const std::string& path) {
  int fd = -1;
  try {
    fd = io::open_input_file(path, "report");
  } catch (const io::InputFileError& e) {
    spdlog::error("cudaleak: {}", e.what());
    return std::nullopt;
  }
  // Read as it is parsed: a report of a million allocations is never held as text.
  __gnu_cxx::stdio_filebuf<char> file(fd, std::ios::in | std::ios::binary, size_t(1) << 20);
  std::istream in(&file);
  std::string start(64, '\0');
  in.read(start.data(), std::streamsize(start.size()));
  start.resize(size_t(in.gcount()));
  in.clear();
  in.seekg(0);
  if (capture::is_crash_capture(start)) {  // small: the handler's raw records
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return report_from_capture(text, path);
  }
  struct stat st;
  uint64_t size = fstat(fd, &st) == 0 ? uint64_t(st.st_size) : 0;
  ProgressLine line(path, size);
  try {
    auto r = report::read_report(in, [&](uint64_t done) { line.update(done); });
    line.finish();
    if (r.format_version < 2) {  // read as a version 2 report says it
      oom::fold_attempts(r.oom_events);
      r.format_version = report::kFormatVersion;
    }
    return r;
  } catch (const report::FormatError& e) {
    line.finish();
    spdlog::error("cudaleak: {}: {}", path, e.what());
    return std::nullopt;
  }
}

std::vector<std::string> report_files_in(const std::string& dir, std::string& problem) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    // A report's members come in key order: "format" is among the first few.
    std::ifstream in(entry.path(), std::ios::binary);
    std::string start(4096, '\0');
    in.read(start.data(), std::streamsize(start.size()));
    start.resize(size_t(in.gcount()));
    if (capture::is_crash_capture(start) || start.find("\"format\": \"cudaleak-report\"") != std::string::npos ||
        start.find("\"format\":\"cudaleak-report\"") != std::string::npos)
      files.push_back(entry.path().string());
  }
  if (ec) problem = "cannot read the directory " + dir + ": " + ec.message();
  else if (files.empty()) problem = dir + ": no cudaleak reports in this directory";
  std::sort(files.begin(), files.end());
  return files;
}

std::optional<std::vector<report::Report>> load_reports(const std::vector<std::string>& paths) {
  std::vector<report::Report> reports;
  for (const auto& p : paths) {
    std::error_code ec;
    std::vector<std::string> files{p};
    if (std::filesystem::is_directory(p, ec)) {
      std::string problem;
      files = report_files_in(p, problem);
      if (!problem.empty()) {
        spdlog::error("cudaleak: {}", problem);
        return std::nullopt;
      }
    }
    for (const auto& f : files) {
      auto r = load_report(f);
      if (!r) return std::nullopt;
      reports.push_back(std::move(*r));
    }
  }
  return reports;
}

bool write_output(const std::string& path, const std::function<void(const TextSink&)>& produce) {
  if (path.empty() || path == "-") {
    produce([](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
    return true;
  }
  safe_output::File f;
  bool ok = safe_output::open(f, path.c_str(), safe_output::Targets::RegularFilesOnly);
  if (ok) {
    produce([&](std::string_view piece) { ok = ok && safe_output::write(f, piece.data(), piece.size()); });
    if (ok) ok = safe_output::commit(f);
    else safe_output::abandon(f);
  }
  if (ok) return true;
  spdlog::error("cudaleak: cannot write {}: {}", path, safe_output::problem_of(f));
  return false;
}

bool write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return true;
  }
  safe_output::File f;
  if (safe_output::write_whole(f, path.c_str(), text.data(), text.size(), safe_output::Targets::RegularFilesOnly))
    return true;
  spdlog::error("cudaleak: cannot write {}: {}", path, safe_output::problem_of(f));
  return false;
}

}  // namespace cudaleak::cli
