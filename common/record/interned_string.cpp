#include "common/record/interned_string.h"

#include <mutex>
#include <unordered_set>

namespace cudaleak::report {

const std::string& InternedString::empty_text() {
  static const std::string* empty = new std::string;  // never destroyed: see the header
  return *empty;
}

namespace {
struct Hash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
struct Pool {
  std::mutex mutex;
  std::unordered_set<std::string, Hash, std::equal_to<>> texts;  // nodes never move
};
Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: see the header
  return *p;
}
}  // namespace

const std::string* InternedString::intern(std::string_view s) {
  if (s.empty()) return nullptr;
  Pool& p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.texts.find(s);
  if (it == p.texts.end()) it = p.texts.emplace(s).first;
  return &*it;
}

}  // namespace cudaleak::report
