#include "report/cli/sanitizer_runtimes.h"

#include <vector>

namespace cudaleak::cli {

namespace {

std::vector<std::string> preload_entries(const char* list) {
  std::vector<std::string> entries;
  std::string entry;
  for (const char* p = list ? list : "";; ++p) {
    if (*p == ':' || *p == ' ' || *p == '\0') {
      if (!entry.empty()) entries.push_back(entry);
      entry.clear();
      if (!*p) break;
    } else {
      entry += *p;
    }
  }
  return entries;
}

}  // namespace

bool is_sanitizer_runtime(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  for (const char* gcc : {"libasan.so", "libtsan.so", "libhwasan.so", "liblsan.so", "libubsan.so"})
    if (name.rfind(gcc, 0) == 0) return true;
  for (const char* clang : {"asan", "tsan", "hwasan", "lsan", "msan", "ubsan", "memprof"})
    if (name.rfind(std::string("libclang_rt.") + clang, 0) == 0) return true;
  return false;
}

std::string preload_after_sanitizers(const char* existing, const std::string& library) {
  std::string out;
  bool placed = false;
  for (const std::string& entry : preload_entries(existing)) {
    if (!placed && !is_sanitizer_runtime(entry)) {
      out += (out.empty() ? "" : ":") + library;
      placed = true;
    }
    out += (out.empty() ? "" : ":") + entry;
  }
  if (!placed) out += (out.empty() ? "" : ":") + library;
  return out;
}

std::string asan_options_for_preload(const char* existing) {
  const std::string options = existing ? existing : "";
  if (options.find("verify_asan_link_order") != std::string::npos) return options;
  return options.empty() ? "verify_asan_link_order=0" : options + ":verify_asan_link_order=0";
}

}  // namespace cudaleak::cli
