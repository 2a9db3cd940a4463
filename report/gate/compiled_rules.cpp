#include "report/gate/compiled_rules.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "report/gate/suppressions.h"

namespace cudaleak::gate {

namespace {

constexpr char kMagic[8] = {'C', 'L', 'R', 'U', 'L', 'E', 'S', '1'};
constexpr uint32_t kByteOrder = 0x01020304;

struct Header {
  char magic[8];
  uint32_t byte_order;
  uint32_t reserved;
  uint64_t key, problems, rules, sources, unkeyed, nodes, edges, outputs, pool;  // sizes in bytes
};

uint64_t padded(uint64_t n) { return (n + 7) & ~uint64_t(7); }

// The sections in file order, each starting 8-aligned after the header.
struct Section {
  const void* data;
  uint64_t bytes;
};

template <class T>
Section section(std::span<const T> s) {
  return {s.data(), s.size_bytes()};
}

struct Mapping {
  void* base = MAP_FAILED;
  size_t size = 0;
  ~Mapping() {
    if (base != MAP_FAILED) munmap(base, size);
  }
};

template <class T>
std::optional<std::span<const T>> take(const char* base, uint64_t& at, uint64_t bytes, uint64_t file_size) {
  if (bytes % sizeof(T) || at > file_size || bytes > file_size - at) return std::nullopt;
  std::span<const T> s(reinterpret_cast<const T*>(base + at), bytes / sizeof(T));
  at += padded(bytes);
  return s;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + '\n';
  return out;
}

}  // namespace

std::string rules_key(bool default_rules, const std::vector<std::string>& files) {
  std::string key = default_rules ? "default\n" : "none\n";
  for (const auto& f : files) key += f + '\n';
  return key;
}

CompiledRules compile_rules(bool default_rules, const std::vector<std::string>& files) {
  RuleSetBuilder builder;
  CompiledRules out;
  if (default_rules) builder.add_text(default_rules_text(), "default");
  for (const std::string& path : files) {
    try {
      builder.add_file(path);
    } catch (const std::exception& e) {  // unreadable, malformed, or too big for memory
      out.problems.push_back(e.what());
    }
  }
  out.rules = builder.build();
  return out;
}

std::string write_compiled_rules(const std::string& path, const std::string& key, const CompiledRules& compiled) {
  const RuleSetView& v = compiled.rules.view();
  std::string problems = joined(compiled.problems);
  Section sections[] = {{key.data(), key.size()},
                        {problems.data(), problems.size()},
                        section(v.rules),
                        section(v.sources),
                        section(v.unkeyed),
                        section(v.index.nodes),
                        section(v.index.edges),
                        section(v.index.outputs),
                        {v.pool.data(), v.pool.size()}};
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.byte_order = kByteOrder;
  uint64_t* sizes[] = {&h.key, &h.problems, &h.rules, &h.sources, &h.unkeyed, &h.nodes, &h.edges, &h.outputs, &h.pool};
  for (size_t i = 0; i < std::size(sections); ++i) *sizes[i] = sections[i].bytes;

  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return "cannot create " + path + ": " + std::strerror(errno);
  auto write_all = [&](const void* data, uint64_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
      ssize_t w = ::write(fd, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      p += w;
      n -= uint64_t(w);
    }
    return true;
  };
  static const char zeros[8] = {};
  bool ok = write_all(&h, sizeof h);
  for (const Section& s : sections)
    ok = ok && write_all(s.data, s.bytes) && write_all(zeros, padded(s.bytes) - s.bytes);
  int err = errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok) {
    ::unlink(path.c_str());
    return "cannot write " + path + ": " + std::strerror(err);
  }
  return "";
}

std::optional<CompiledRules> map_compiled_rules(const std::string& path, const std::string& key) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  auto mapping = std::make_shared<Mapping>();
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && uint64_t(st.st_size) >= sizeof(Header)) {
    mapping->size = size_t(st.st_size);
    mapping->base = mmap(nullptr, mapping->size, PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);
  if (mapping->base == MAP_FAILED) return std::nullopt;

  const char* base = static_cast<const char*>(mapping->base);
  const uint64_t size = mapping->size;
  Header h;
  std::memcpy(&h, base, sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.byte_order != kByteOrder) return std::nullopt;
  uint64_t at = sizeof h;
  auto key_text = take<char>(base, at, h.key, size);
  auto problems = take<char>(base, at, h.problems, size);
  auto rules = take<PackedRule>(base, at, h.rules, size);
  auto sources = take<PackedSource>(base, at, h.sources, size);
  auto unkeyed = take<uint32_t>(base, at, h.unkeyed, size);
  auto nodes = take<IndexNode>(base, at, h.nodes, size);
  auto edges = take<IndexEdge>(base, at, h.edges, size);
  auto outputs = take<uint32_t>(base, at, h.outputs, size);
  auto pool = take<char>(base, at, h.pool, size);
  if (!key_text || !problems || !rules || !sources || !unkeyed || !nodes || !edges || !outputs || !pool)
    return std::nullopt;
  if (std::string_view(key_text->data(), key_text->size()) != key) return std::nullopt;

  RuleSetView view{
      *rules, *sources, *unkeyed, std::string_view(pool->data(), pool->size()), {*nodes, *edges, *outputs}};
  if (!view.valid()) return std::nullopt;
  CompiledRules out{RuleSet(view, mapping), {}};
  std::string_view rest(problems->data(), problems->size());
  while (!rest.empty()) {
    size_t eol = rest.find('\n');
    out.problems.emplace_back(rest.substr(0, eol));
    rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
  }
  return out;
}

}  // namespace cudaleak::gate
