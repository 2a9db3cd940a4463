#include "interpose/runtime/reach_maps.h"

namespace cudaleak::reach {

namespace {

bool hex(const char*& p, const char* end, uint64_t& value) {
  value = 0;
  const char* start = p;
  for (; p < end; ++p) {
    char c = *p;
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0 || p - start >= 16) break;
    value = value << 4 | uint64_t(digit);
  }
  return p > start;
}

void skip_spaces(const char*& p, const char* end) {
  while (p < end && *p == ' ') ++p;
}

void skip_field(const char*& p, const char* end) {
  while (p < end && *p != ' ' && *p != '\n') ++p;
  skip_spaces(p, end);
}

bool starts(const char* p, const char* end, const char* word) {
  for (; *word; ++word, ++p)
    if (p >= end || *p != *word) return false;
  return true;
}

// "7f00-7f10 rw-p 00000000 00:00 0      [heap]": address range, permissions,
// offset, device, inode, then the path (absent for anonymous memory).
bool parse_line(const char* p, const char* end, Mapping& m) {
  uint64_t begin, finish;
  if (!hex(p, end, begin) || p >= end || *p != '-') return false;
  ++p;
  if (!hex(p, end, finish) || finish <= begin) return false;
  skip_spaces(p, end);
  if (end - p < 4) return false;
  m.begin = begin;
  m.end = finish;
  m.readable = p[0] == 'r';
  m.writable = p[1] == 'w';
  m.shared = p[3] == 's';
  skip_field(p, end);  // permissions
  skip_field(p, end);  // offset
  skip_field(p, end);  // device
  uint64_t inode = 0;
  for (; p < end && *p >= '0' && *p <= '9'; ++p) inode = inode * 10 + uint64_t(*p - '0');
  skip_spaces(p, end);
  if (p >= end) m.type = inode ? MapType::File : MapType::Anonymous;
  else if (starts(p, end, "[heap]")) m.type = MapType::Heap;
  else if (starts(p, end, "[stack]")) m.type = MapType::Stack;
  else if (starts(p, end, "[anon:") || starts(p, end, "[anon_shmem:")) m.type = MapType::Anonymous;
  else if (*p == '[') m.type = MapType::Special;
  else m.type = MapType::File;  // a path, "/dev/zero (deleted)", a memfd
  return true;
}

}  // namespace

bool parse_maps(const char* text, size_t length, MappedArray<Mapping>& out) {
  const char* p = text;
  const char* end = text + length;
  while (p < end) {
    const char* eol = p;
    while (eol < end && *eol != '\n') ++eol;
    Mapping m;
    if (parse_line(p, eol, m) && !out.push_back(m)) return false;
    p = eol + 1;
  }
  return true;
}

const Mapping* mapping_at(const MappedArray<Mapping>& maps, uint64_t address) {
  size_t lo = 0, hi = maps.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (maps[mid].end <= address) lo = mid + 1;
    else hi = mid;
  }
  return lo < maps.size() && maps[lo].begin <= address ? &maps[lo] : nullptr;
}

}  // namespace cudaleak::reach
