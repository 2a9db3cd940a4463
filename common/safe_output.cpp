#include "common/safe_output.h"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>


namespace cudaleak::safe_output {

namespace {

int64_t g_run_start_ns = 0;
// When this image started (CLOCK_REALTIME): a file at one of its names written
// since then by no process of its run is another run's, written meanwhile (a
// container beside it on a shared volume, where pids repeat).
int64_t g_image_start_ns = 0;
// CUDALEAK_GATE_DIR, read once in mark_run_start: crash handlers claim names
// without calling getenv.
char g_run_dir[PATH_MAX] = {};
// This image's own mark in the claims: the pid and the moment cudaleak
// started in it, so that an image that replaced another (exec, same pid)
// never takes the one before's names for its own.
char g_claimant[48] = {};
// Files this process wrote (device, inode): rewriting one of them is fine.
struct Written {
  dev_t dev;
  ino_t ino;
};
constexpr size_t kRemembered = 64;
Written g_written[kRemembered];
size_t g_written_count = 0;

bool copy(char* out, size_t cap, const char* a, size_t an, const char* b = "", size_t bn = 0, const char* c = "",
          size_t cn = 0) {
  if (an + bn + cn >= cap) return false;
  std::memcpy(out, a, an);
  std::memcpy(out + an, b, bn);
  std::memcpy(out + an + bn, c, cn);
  out[an + bn + cn] = '\0';
  return true;
}

bool written_by_us(const struct stat& st) {
  for (size_t i = 0; i < g_written_count && i < kRemembered; ++i)
    if (g_written[i].dev == st.st_dev && g_written[i].ino == st.st_ino) return true;
  return false;
}

// Under `cudaleak run`, each process claims the names it writes in the run's
// own directory (async-signal-safe: crash reports claim theirs too) (CUDALEAK_GATE_DIR): 1 when `path` is this process's (claimed
// now or before), 0 when another process of the run claimed it, -1 when there
// is no run directory. A file left by an earlier run is never taken for this
// run's, however soon after it this run starts.
int claim(const char* path) {
  // Only the run's processes claim (mark_run_start): the launcher rewrites
  // their crash captures in place.
  const char* dir = g_run_dir;
  if (!g_run_start_ns || !*dir) return -1;
  char absolute[PATH_MAX];
  if (path[0] == '/') {
    if (!copy(absolute, sizeof absolute, path, std::strlen(path))) return -1;
  } else {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd) ||
        !copy(absolute, sizeof absolute, cwd, std::strlen(cwd), "/", 1, path, std::strlen(path)))
      return -1;
  }
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a of the absolute name
  for (const char* c = absolute; *c; ++c) hash = (hash ^ uint8_t(*c)) * 0x100000001b3ull;
  char name[32] = "claim-";
  static const char hex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) name[6 + i] = hex[(hash >> (60 - 4 * i)) & 15];
  name[22] = '\0';
  char claim_path[PATH_MAX];
  if (!copy(claim_path, sizeof claim_path, dir, std::strlen(dir), "/", 1, name, std::strlen(name))) return -1;
  // Without snprintf: crash handlers come here. A forked child is another
  // claimant (its own pid) with the parent's start.
  char mine[72];
  size_t n = 0;
  char digits[16];
  int d = 0;
  for (unsigned v = unsigned(getpid()); v; v /= 10) digits[d++] = char('0' + v % 10);
  while (d) mine[n++] = digits[--d];
  mine[n++] = '.';
  for (const char* c = g_claimant; *c && n + 1 < sizeof mine; ++c) mine[n++] = *c;
  mine[n] = '\0';
  int fd = ::open(claim_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) {
    bool ok = ::write(fd, mine, n) == ssize_t(n);
    ::close(fd);
    return ok ? 1 : -1;
  }
  if (errno != EEXIST) return -1;
  fd = ::open(claim_path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  char owner[72] = {};
  ssize_t got = ::read(fd, owner, sizeof owner - 1);
  ::close(fd);
  // Empty: another process created it and has not written its pid yet (this
  // process writes its own before it returns).
  if (got <= 0) return 0;
  return std::strcmp(owner, mine) == 0 ? 1 : 0;
}

int64_t modified_ns(const struct stat& st) { return int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec; }

// An existing regular file written during this run by another process.
bool taken_by_another_process(const struct stat& st) {
  if (g_run_start_ns == 0) return false;
  return modified_ns(st) >= g_run_start_ns && !written_by_us(st);
}

// An existing regular file written since this image started, not by it: by
// a process of another run (claims settle this run's own processes).
bool written_meanwhile_by_another_run(const struct stat& st) {
  return g_image_start_ns != 0 && modified_ns(st) > g_image_start_ns && !written_by_us(st);
}

size_t decimal(char* out, unsigned v) {  // without snprintf: crash handlers come here
  char digits[16];
  size_t n = 0;
  do digits[n++] = char('0' + v % 10);
  while (v /= 10);
  for (size_t i = 0; i < n; ++i) out[i] = digits[n - 1 - i];
  return n;
}

// This process's k-th name (k >= 1) for `original`, a name another writer of
// the run has: NAME.PID.EXT, then NAME.PID-2.EXT, NAME.PID-3.EXT (another
// image of this pid, after an exec, had the one before). Where NAME already
// ends in .PID (a %p pattern), the pid is not said twice: NAME-2.EXT, ...
bool alternative_name(char* out, size_t cap, const char* original, int k) {
  const size_t len = std::strlen(original);
  const char* slash = std::strrchr(original, '/');
  const char* dot = std::strrchr(original, '.');
  const size_t at = dot && (!slash || dot > slash) && dot != (slash ? slash + 1 : original) ? size_t(dot - original)
                                                                                            : len;
  char pid[20] = ".";
  const size_t pid_len = 1 + decimal(pid + 1, unsigned(getpid()));
  const bool has_pid = at >= pid_len && std::memcmp(original + at - pid_len, pid, pid_len) == 0;
  if (has_pid && k == 1) k = 2;  // its own name is the pattern's: the next is -2
  char suffix[40];
  size_t sl = 0;
  if (!has_pid) {
    std::memcpy(suffix, pid, pid_len);
    sl = pid_len;
  }
  if (k > 1) {
    suffix[sl++] = '-';
    sl += decimal(suffix + sl, unsigned(k));
  }
  return copy(out, cap, original, at, suffix, sl, original + at, len - at);
}

const char* not_regular(const struct stat& st) {
  return S_ISLNK(st.st_mode)   ? "is a symbolic link; cudaleak does not write through links"
         : S_ISDIR(st.st_mode) ? "is a directory"
                               : "is not a regular file (a FIFO, a device or a socket)";
}

bool fail(File& f, const char* problem, int error) {
  f.problem = problem;
  f.error = error;
  return false;
}

// A name of this process's own for f.path, which another writer has: the
// first alternative that no other writer of the run claimed.
bool take_alternative(File& f) {
  copy(f.shared_name, sizeof f.shared_name, f.path, std::strlen(f.path));
  for (int k = 1; k <= 64; ++k) {
    if (!alternative_name(f.path, sizeof f.path, f.shared_name, k))
      return fail(f, "the name is too long", ENAMETOOLONG);
    if (claim(f.path) != 0) return true;  // ours, or no run to claim names in
  }
  return fail(f, "every alternative name is another writer's", EEXIST);
}

// Renames the temporary to f.path, a name that was free, without replacing
// what another run wrote there since (two containers' processes of the same
// pid writing at once): then to the next alternative name that is free.
// The system call, not glibc's renameat2 (2.28): the preload runs on older glibc.
int rename_noreplace(const char* from, const char* to) {
  return int(syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1u /* RENAME_NOREPLACE */));
}

bool rename_to_new_name(File& f) {
  if (rename_noreplace(f.temp, f.path) == 0) return true;
  if (errno == EINVAL || errno == ENOSYS) return rename(f.temp, f.path) == 0;  // a file system without it
  if (errno != EEXIST) return false;
  // Alternatives of the name first asked for, not of an alternative already taken.
  char taken[PATH_MAX];
  const char* asked = f.shared_name[0] ? f.shared_name : f.path;
  copy(taken, sizeof taken, asked, std::strlen(asked));
  for (int k = 2; k <= 64; ++k) {
    if (!alternative_name(f.path, sizeof f.path, taken, k)) return false;
    struct stat st;
    if (lstat(f.path, &st) == 0 || claim(f.path) == 0) continue;
    if (rename_noreplace(f.temp, f.path) == 0) {
      if (!f.shared_name[0]) {
        copy(f.shared_name, sizeof f.shared_name, taken, std::strlen(taken));
        f.another_run = true;  // no process of this run claimed it: another run wrote it meanwhile
      }
      return true;
    }
    if (errno != EEXIST) return false;
  }
  errno = EEXIST;
  return false;
}

bool open_direct(File& f, bool follow) {
  // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of blocking the program.
  int flags = O_WRONLY | O_NONBLOCK | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW);
  f.fd = ::open(f.path, flags);
  if (f.fd < 0) return fail(f, "cannot open it for writing", errno);
  fcntl(f.fd, F_SETFL, fcntl(f.fd, F_GETFL) & ~O_NONBLOCK);
  f.direct = true;
  return true;
}

bool open_temporary(File& f) {
  const char* slash = std::strrchr(f.path, '/');
  size_t dir_len = slash ? size_t(slash - f.path) + 1 : 0;
  for (int attempt = 0; attempt < 16; ++attempt) {
    unsigned char random[8] = {};
    if (getrandom(random, sizeof random, GRND_NONBLOCK) != sizeof random) {
      uint64_t mix = uint64_t(getpid()) * 0x9e3779b97f4a7c15ull ^ uint64_t(attempt) << 32 ^ uint64_t(uintptr_t(&f));
      std::memcpy(random, &mix, sizeof random);
    }
    char name[40] = ".cudaleak-";
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof random; ++i) {
      name[10 + 2 * i] = hex[random[i] >> 4];
      name[11 + 2 * i] = hex[random[i] & 15];
    }
    std::memcpy(name + 26, ".tmp", 5);
    if (!copy(f.temp, sizeof f.temp, f.path, dir_len, name, std::strlen(name)))
      return fail(f, "the directory name is too long", ENAMETOOLONG);
    f.fd = ::open(f.temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (f.fd >= 0) return true;
    if (errno != EEXIST) return fail(f, "cannot create a file in its directory", errno);
  }
  return fail(f, "cannot create a temporary file in its directory", EEXIST);
}

}  // namespace

void mark_run_start() {
  const char* run_dir = std::getenv("CUDALEAK_GATE_DIR");
  if (!run_dir || !copy(g_run_dir, sizeof g_run_dir, run_dir, std::strlen(run_dir))) g_run_dir[0] = '\0';
  timespec image, image_real;
  clock_gettime(CLOCK_MONOTONIC, &image);
  clock_gettime(CLOCK_REALTIME, &image_real);
  g_image_start_ns = int64_t(image_real.tv_sec) * 1000000000 + image_real.tv_nsec;
  std::snprintf(g_claimant, sizeof g_claimant, "%lld.%ld", static_cast<long long>(image.tv_sec), image.tv_nsec);
  if (const char* given = std::getenv("CUDALEAK_RUN_START")) {
    g_run_start_ns = std::strtoll(given, nullptr, 10);
    return;
  }
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  // A little earlier than now: file systems stamp times with a coarse clock.
  g_run_start_ns = int64_t(now.tv_sec) * 1000000000 + now.tv_nsec - 20000000;
  char text[24];
  std::snprintf(text, sizeof text, "%lld", static_cast<long long>(g_run_start_ns));
  setenv("CUDALEAK_RUN_START", text, 0);
}

bool open(File& f, const char* path, Targets targets) {
  f = File{};
  if (!copy(f.path, sizeof f.path, path, std::strlen(path))) return fail(f, "the name is too long", ENAMETOOLONG);
  struct stat st;
  const int claimed = claim(f.path);
  if (lstat(f.path, &st) != 0) {
    if (errno != ENOENT) return fail(f, "cannot look at it", errno);
    if (claimed == 0 && !take_alternative(f)) return false;  // another process of the run is writing it now
    f.fresh = true;
    return open_temporary(f);
  }
  if (targets == Targets::RegularFilesOnly && !S_ISREG(st.st_mode)) return fail(f, not_regular(st), 0);
  if (S_ISLNK(st.st_mode)) {
    struct stat target;
    if (stat(f.path, &target) == 0 && (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)))
      return open_direct(f, true);  // /dev/stderr and the like
    return fail(f, "is a symbolic link; reports are not written through links to files", ELOOP);
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return open_direct(f, false);
  if (S_ISDIR(st.st_mode)) return fail(f, "is a directory", EISDIR);
  if (!S_ISREG(st.st_mode)) return fail(f, "is not a regular file, a character device or a FIFO", EINVAL);
  const bool another_run = claimed > 0 && written_meanwhile_by_another_run(st);
  const bool another_writer = claimed == 0 || (claimed < 0 && taken_by_another_process(st)) || another_run;
  if (another_writer && !take_alternative(f)) return false;
  f.fresh = another_writer;  // an alternative name: it must be new too
  f.another_run = another_run;
  return open_temporary(f);
}

bool write(File& f, const char* data, size_t n) {
  while (n > 0) {
    ssize_t done = ::write(f.fd, data, n);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return fail(f, "writing failed", done < 0 ? errno : EIO);
    data += done;
    n -= size_t(done);
  }
  return true;
}

bool commit(File& f) {
  if (f.problem) {
    abandon(f);
    return false;
  }
  int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0 && !f.direct) {
    fail(f, "writing failed", errno);
    unlink(f.temp);
    return false;
  }
  if (f.direct) return true;
  if (!f.fresh ? rename(f.temp, f.path) != 0 : !rename_to_new_name(f)) {
    fail(f, "cannot rename the temporary file into place", errno);
    unlink(f.temp);
    return false;
  }
  struct stat st;
  if (lstat(f.path, &st) == 0 && g_written_count < kRemembered) g_written[g_written_count++] = {st.st_dev, st.st_ino};
  return true;
}

void abandon(File& f) {
  if (f.fd >= 0) ::close(f.fd);
  f.fd = -1;
  if (!f.direct && f.temp[0]) unlink(f.temp);
}

const char* refusal(const char* path) {
  struct stat st;
  return lstat(path, &st) == 0 && !S_ISREG(st.st_mode) ? not_regular(st) : nullptr;
}

bool write_whole(File& f, const char* path, const char* data, size_t n, Targets targets) {
  if (open(f, path, targets) && write(f, data, n) && commit(f)) return true;
  abandon(f);
  return false;
}

std::string problem_of(const File& f) {
  return std::string(f.problem ? f.problem : "failed") +
         (f.error ? std::string(" (") + std::strerror(f.error) + ")" : "");
}

}  // namespace cudaleak::safe_output
