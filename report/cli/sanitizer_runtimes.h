// Where the preload library goes among the sanitizer runtimes a program runs
// with. ASan and TSan must resolve the C library's functions before anyone
// else: a runtime the user preloads stays first, and a runtime the program
// links (gcc's default -fsanitize=address) is told not to refuse a preload
// that comes before it, which cudaleak may, since it defines none of the
// functions a sanitizer intercepts.
#pragma once

#include <string>

namespace cudaleak::cli {

// Whether `path` names a sanitizer's runtime library (libasan.so.8,
// libclang_rt.tsan-x86_64.so, ...).
bool is_sanitizer_runtime(const std::string& path);

// LD_PRELOAD with `library` added after the sanitizer runtimes that lead
// `existing` (colon- or space-separated, as the loader reads it), before the
// rest.
std::string preload_after_sanitizers(const char* existing, const std::string& library);

// ASAN_OPTIONS with verify_asan_link_order=0 added, unless the user set that
// option; `existing` may be null.
std::string asan_options_for_preload(const char* existing);

}  // namespace cudaleak::cli
