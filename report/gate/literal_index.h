// Finds, in one pass over a text, every key of a fixed set that occurs in it
// (Aho-Corasick). The suppression rules index the literal part of their
// patterns here, so that matching a frame costs about the same for ten rules
// as for a million: only the rules whose literal occurs are checked in full.
//
// The automaton is three flat arrays, so that it can be built once (by the
// launcher) and used in place from a file mapped by every process of a run.
// Nodes are numbered in breadth-first order: every edge leads to a higher
// number and every fail or output link to a lower one, which is what
// `valid()` checks on a mapped file and what makes any walk terminate.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace cudaleak::gate {

struct IndexNode {
  uint32_t edges;     // first edge; the next node's is one past the last
  uint32_t fail;      // longest proper suffix of this node's string that is a node
  uint32_t outputs;   // first key id ending here; the next node's is one past the last
  uint32_t out_link;  // nearest node on the fail chain with outputs (0: none)
};
struct IndexEdge {
  uint32_t byte;
  uint32_t target;
};

// A view of the arrays: owned by a LiteralIndex, or inside a mapped file.
// nodes has one more entry than there are nodes (the end of the last ranges).
struct IndexView {
  std::span<const IndexNode> nodes;
  std::span<const IndexEdge> edges;
  std::span<const uint32_t> outputs;

  uint32_t step(uint32_t state, unsigned char byte) const;  // 0: no edge
  bool valid(uint32_t id_limit) const;                      // structure sound, ids below the limit

  // f(id) for every occurrence of every key in text (an id may repeat).
  template <class F>
  void for_each_match(std::string_view text, F&& f) const {
    if (nodes.size() < 2) return;
    uint32_t s = 0;
    for (unsigned char c : text) {
      for (;;) {
        if (uint32_t t = step(s, c)) {
          s = t;
          break;
        }
        if (s == 0) break;
        s = nodes[s].fail;
      }
      for (uint32_t o = nodes[s].outputs != nodes[s + 1].outputs ? s : nodes[s].out_link; o; o = nodes[o].out_link)
        for (uint32_t i = nodes[o].outputs; i < nodes[o + 1].outputs; ++i) f(outputs[i]);
    }
  }
};

class LiteralIndex {
 public:
  // keys[i] is found as id ids[i]; empty keys are skipped.
  LiteralIndex(const std::vector<std::string_view>& keys, const std::vector<uint32_t>& ids);
  LiteralIndex() : LiteralIndex({}, {}) {}
  IndexView view() const { return {nodes_, edges_, outputs_}; }

 private:
  std::vector<IndexNode> nodes_;
  std::vector<IndexEdge> edges_;
  std::vector<uint32_t> outputs_;
};

}  // namespace cudaleak::gate
