/* cudaleak.h: checks at points in time, for test harnesses.
 *
 * Safe whether or not the program runs under cudaleak: each function finds
 * cudaleak in the process with dlsym and returns -1 when it is not there.
 *
 *   cudaleak_checkpoint("test_foo");             // remember this moment
 *   ... run the test ...
 *   cudaleak_stats s;
 *   if (cudaleak_leaks_since("test_foo", &s) == 0 && s.count)  // created since, still alive
 *     fail("test_foo leaked %llu CUDA resources (%llu bytes)", s.count, s.bytes);
 *   cudaleak_report("after_test_foo");            // a report with reason "checkpoint"
 *
 * cudaleak_gate_since asks the leak gate instead (suppressions, fail_on,
 * baseline) and describes what fails it, as the GoogleTest listener
 * (cudaleak_gtest.h) and the pytest plugin do.
 *
 * The GPU counterpart of __lsan_do_recoverable_leak_check and
 * VALGRIND_DO_ADDED_LEAK_CHECK. Link with -ldl on glibc older than 2.34. */
#ifndef CUDALEAK_H
#define CUDALEAK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cudaleak_stats {
  unsigned long long count; /* resources created since the checkpoint and still alive */
  unsigned long long bytes; /* their memory, in bytes */
} cudaleak_stats;

static inline void* cudaleak_find_(const char* name) { return dlsym(RTLD_DEFAULT, name); }

/* 1 when the program runs under cudaleak, else 0. */
static inline int cudaleak_active(void) { return cudaleak_find_("cudaleak_impl_checkpoint") != 0; }

/* Remembers this moment under `name` (again: moves it). 0 on success, -1 without cudaleak. */
static inline int cudaleak_checkpoint(const char* name) {
  int (*fn)(const char*) = (int (*)(const char*))cudaleak_find_("cudaleak_impl_checkpoint");
  return fn ? fn(name) : -1;
}

/* Resources created after checkpoint `name` and still alive. 0 on success,
 * -1 without cudaleak or for an unknown checkpoint. */
static inline int cudaleak_leaks_since(const char* name, cudaleak_stats* out) {
  int (*fn)(const char*,
            cudaleak_stats*) = (int (*)(const char*, cudaleak_stats*))cudaleak_find_("cudaleak_impl_leaks_since");
  return fn ? fn(name, out) : -1;
}

/* The leak gate's verdict on the resources created after checkpoint `name`
 * and still alive: the same suppressions, fail_on, min_bytes, baseline and
 * caching-allocator rules as the gate at exit. */
typedef struct cudaleak_verdict {
  cudaleak_stats alive;   /* created since the checkpoint, still alive */
  cudaleak_stats failing; /* of those, what the gate counts: nonzero count = the test fails */
  char file[512];         /* the program's source file of the biggest failing group ("" when unknown) */
  int line;
} cudaleak_verdict;

/* Fills `out` and writes the failing groups (headline and stack of each) into
 * `message` (`size` bytes, always NUL-terminated, "" when nothing fails).
 * 0 on success, -1 without cudaleak or for an unknown checkpoint. */
static inline int cudaleak_gate_since(const char* name, cudaleak_verdict* out, char* message, unsigned long size) {
  int (*fn)(const char*, cudaleak_verdict*, char*,
            unsigned long) = (int (*)(const char*, cudaleak_verdict*, char*,
                                      unsigned long))cudaleak_find_("cudaleak_impl_gate_since");
  return fn ? fn(name, out, message, size) : -1;
}

/* cudaleak_gate_since by sequence numbers (cudaleak_sequence: the number of the last
 * resource created), for windows too frequent for named checkpoints (a test
 * suite's fixtures): no mark on the report's timeline. */
static inline int cudaleak_sequence(unsigned long long* out) {
  int (*fn)(unsigned long long*) = (int (*)(unsigned long long*))cudaleak_find_("cudaleak_impl_sequence");
  return fn ? fn(out) : -1;
}
static inline int cudaleak_gate_range(unsigned long long since, unsigned long long until, cudaleak_verdict* out,
                                      char* message, unsigned long size) {
  int (*fn)(unsigned long long, unsigned long long, cudaleak_verdict*, char*,
            unsigned long) = (int (*)(unsigned long long, unsigned long long, cudaleak_verdict*, char*,
                                      unsigned long))cudaleak_find_("cudaleak_impl_gate_range");
  return fn ? fn(since, until, out, message, size) : -1;
}

/* Memory budgets (a test's peak of device memory). cudaleak_peak_begin
 * starts a window: from now, each device's highest device memory (device,
 * managed, stream-ordered, VMM, arrays, graph and kernel-heap memory; not
 * pinned host memory) above what it held at the start. With `limit_bytes`
 * (0: none), once a device rises more than that above its start, the sites
 * that grew are recorded. Windows do not nest: a new one replaces the last. */
typedef struct cudaleak_peak {
  unsigned long long bytes; /* the highest rise above the start, on the device that rose most */
  unsigned long long start; /* that device's memory when the window began */
  int device;               /* -1: no device memory seen */
  char file[512];           /* over the limit: the program's source file of the site that grew most */
  int line;
} cudaleak_peak;

static inline int cudaleak_peak_begin(unsigned long long limit_bytes) {
  int (*fn)(unsigned long long) = (int (*)(unsigned long long))cudaleak_find_("cudaleak_impl_peak_begin");
  return fn ? fn(limit_bytes) : -1;
}

/* Fills `out` for the window begun last and, once over its limit, writes the
 * sites that grew (growth and stack of each) into `message` (`size` bytes,
 * NUL-terminated, "" otherwise). 0 on success, -1 without cudaleak. */
static inline int cudaleak_peak_read(cudaleak_peak* out, char* message, unsigned long size) {
  int (*fn)(cudaleak_peak*, char*,
            unsigned long) = (int (*)(cudaleak_peak*, char*, unsigned long))cudaleak_find_("cudaleak_impl_peak_read");
  return fn ? fn(out, message, size) : -1;
}

/* Counts `n` requests (or steps, batches) the program handled, so that a
 * site or line that grows is also put per 1,000 requests ("+3.3 MiB per 1,000
 * requests"). One atomic add in cudaleak; the lookup is made once. From
 * Python: ctypes.CDLL(None).cudaleak_impl_requests(1). 0 on success, -1
 * without cudaleak. */
static inline int cudaleak_requests(unsigned long long n) {
  static int (*fn)(unsigned long long) = 0;
  static int looked = 0;
  if (!looked) {
    fn = (int (*)(unsigned long long))cudaleak_find_("cudaleak_impl_requests");
    looked = 1;
  }
  return fn ? fn(n) : -1;
}

/* Writes a report of live resources now, reason "checkpoint", named `name`. */
static inline int cudaleak_report(const char* name) {
  int (*fn)(const char*) = (int (*)(const char*))cudaleak_find_("cudaleak_impl_report");
  return fn ? fn(name) : -1;
}

#ifdef __cplusplus
}
#endif
#endif /* CUDALEAK_H */
