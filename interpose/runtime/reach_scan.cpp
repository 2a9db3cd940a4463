#include "interpose/runtime/reach_scan.h"

#include <algorithm>

namespace cudaleak::reach {

namespace {
constexpr int kGranuleShift = 21;               // 2 MiB
constexpr uint64_t kAddressSpace = 1ull << 47;  // user space of 4-level paging: a 16 MiB... 8 MiB bitmap
constexpr size_t kChunk = 65536;                // scanned at a time
constexpr size_t kMaxOverlapWalk = 64;          // targets looked at backwards for one word
}  // namespace

bool Scan::prepare() {
  std::sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) { return a.begin < b.begin; });
  if (!max_end_.resize(targets.size())) return false;
  uint64_t furthest = 0;
  for (size_t i = 0; i < targets.size(); ++i) max_end_[i] = furthest = std::max(furthest, targets[i].end);
  // Fresh pages read as zero: only the granules marked cost memory.
  if (!granules_.resize(size_t(kAddressSpace >> kGranuleShift) / 64)) return false;
  for (const Target& t : targets) mark_granules(t.begin, t.end);
  for (const Region& r : regions)
    if (!r.excluded) mark_granules(r.begin, r.end);
  return true;
}

void Scan::mark_granules(uint64_t begin, uint64_t end) {
  if (begin >= kAddressSpace || end <= begin) return;
  end = std::min(end, kAddressSpace);
  for (uint64_t g = begin >> kGranuleShift; g <= (end - 1) >> kGranuleShift; ++g) granules_[g / 64] |= 1ull << (g % 64);
}

bool Scan::maybe(uint64_t word) const {
  if (word < 4096) return false;
  if (word >= kAddressSpace) return word < (1ull << 57);  // five-level paging: not filtered
  const uint64_t g = word >> kGranuleShift;
  return granules_[g / 64] >> (g % 64) & 1;
}

template <class F>
size_t Scan::match_targets(uint64_t word, const F& found) const {
  // The last target starting at or before word, then back while one could still reach it.
  size_t i = size_t(
      std::upper_bound(targets.begin(), targets.end(), word, [](uint64_t w, const Target& t) { return w < t.begin; }) -
      targets.begin());
  size_t matched = 0;
  for (size_t walked = 0; i-- > 0 && walked < kMaxOverlapWalk && max_end_[i] > word; ++walked) {
    const Target& t = targets[i];
    if (t.exact ? word == t.begin : word < t.end) {
      found(t);
      ++matched;
    }
  }
  return matched;
}

bool Scan::overlaps_target(uint64_t begin, uint64_t end) const {
  size_t i = size_t(
      std::lower_bound(targets.begin(), targets.end(), end, [](const Target& t, uint64_t e) { return t.begin < e; }) -
      targets.begin());
  for (size_t walked = 0; i-- > 0 && walked < kMaxOverlapWalk && max_end_[i] > begin; ++walked)
    if (!targets[i].exact && targets[i].end > begin) return true;
  return false;
}

uint64_t* Scan::piece_at(uint64_t address, const Region** region) {
  auto r = std::upper_bound(regions.begin(), regions.end(), address,
                            [](uint64_t a, const Region& x) { return a < x.begin; });
  if (r == regions.begin() || address >= (--r)->end || r->excluded || !r->count) return nullptr;
  uint64_t* first = pieces.begin() + r->first;
  uint64_t* p = std::upper_bound(first, first + r->count, address,
                                 [](uint64_t a, uint64_t piece) { return a < piece_start(piece); });
  if (p == first) return nullptr;
  *region = r;
  return p - 1;
}

uint64_t Scan::piece_end(const Region& region, const uint64_t* piece) const {
  const uint64_t* last = pieces.begin() + region.first + region.count - 1;
  return piece == last ? region.end : piece_start(piece[1]);
}

void Scan::exclude_piece(uint64_t address) {
  const Region* region = nullptr;
  if (uint64_t* p = piece_at(address, &region)) *p |= kVisited;
}

void Scan::follow(uint64_t word, uint64_t at, uint32_t root, uint64_t root_word, bool via_heap) {
  const size_t matched = match_targets(word, [&](const Target& t) {
    Finding& f = findings[t.index];
    if (f.found) return;
    f = Finding{true, word != t.begin, via_heap, root, via_heap ? root_word : at};
  });
  if (matched) return;  // an allocation's memory, or a handle's driver object: never followed
  const Region* region = nullptr;
  uint64_t* piece = piece_at(word, &region);
  if (!piece || (*piece & kVisited) || !(*piece & kInUse)) return;
  const uint64_t start = piece_start(*piece);
  // A malloc chunk's header is no block's memory: a word pointing at it is
  // one past the end of the chunk before (a std::vector's end, kept in a
  // global after its destructor freed the buffer), never the program's
  // pointer to this one, whose memory starts 16 bytes in.
  if (!(*piece & kWhole) && word < start + 16) return;
  *piece |= kVisited;
  const uint64_t end = piece_end(*region, piece);
  const bool chunk = !(*piece & kWhole);
  // A malloc chunk's data: past its header, up to the next chunk's size word.
  const uint64_t data = chunk ? start + 16 : start;
  const uint64_t data_end = chunk && !(*piece & kMmapped) && end + 8 <= region->end ? end + 8 : end;
  if (data >= data_end || overlaps_target(data, data_end)) return;
  if (chunk && !(*piece & kMmapped) && looks_like_tcache(start, end - start)) return;
  if (!work_.push_back(Work{data, data_end, via_heap ? root_word : at, root, chunk && !(*piece & kMmapped)})) {
    complete = false;
    stopped_ = true;
  }
}

void Scan::scan_range(uint64_t begin, uint64_t end, uint32_t root, uint64_t root_word, bool via_heap, bool chunk) {
  alignas(16) uint64_t buffer[kChunk / 8];
  begin = (begin + 7) & ~uint64_t(7);
  for (uint64_t at = begin; at < end && !stopped_;) {
    const size_t want = size_t(std::min<uint64_t>(kChunk, end - at)) & ~size_t(7);
    if (!want) break;
    if (byte_limit && bytes_scanned + want > byte_limit) {
      complete = false;
      stopped_ = true;
      return;
    }
    size_t got = read_own(at, buffer, want);
    if (got < want) {  // a page unmapped or unreadable: what precedes it, then the next page
      const uint64_t next_page = (at + got + 4096) & ~uint64_t(4095);
      if (!got) {
        at = next_page;
        continue;
      }
    }
    if (chunk && at == begin && tcache_key && got >= 16 && buffer[1] == tcache_key) return;  // freed into a tcache
    bytes_scanned += got;
    for (size_t i = 0; i < got / 8; ++i)
      if (maybe(buffer[i])) follow(buffer[i], at + i * 8, root, root_word, via_heap);
    at += got < want ? ((at + got + 4095) & ~uint64_t(4095)) - at : got;
  }
}

void Scan::run() {
  for (const Root& r : roots) {
    if (stopped_) break;
    scan_range(r.begin, r.end, r.label, 0, false);
    while (!work_.empty() && !stopped_) {
      Work w = work_.back();
      work_.pop_back();
      ++pieces_followed;
      scan_range(w.begin, w.end, w.root, w.root_word, true, w.chunk);
    }
  }
}

}  // namespace cudaleak::reach
