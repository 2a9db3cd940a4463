#include "report/gate/literal_index.h"

#include <algorithm>
#include <numeric>

namespace cudaleak::gate {

uint32_t IndexView::step(uint32_t state, unsigned char byte) const {
  const IndexEdge* first = edges.data() + nodes[state].edges;
  const IndexEdge* last = edges.data() + nodes[state + 1].edges;
  const IndexEdge* e = std::lower_bound(first, last, byte, [](const IndexEdge& x, unsigned b) { return x.byte < b; });
  return e != last && e->byte == byte ? e->target : 0;
}

bool IndexView::valid(uint32_t id_limit) const {
  if (nodes.size() < 2) return nodes.empty() && edges.empty() && outputs.empty();
  const size_t n = nodes.size() - 1;
  if (nodes[0].edges != 0 || nodes[0].outputs != 0 || nodes[n].edges != edges.size() ||
      nodes[n].outputs != outputs.size())
    return false;
  for (size_t i = 0; i < n; ++i) {
    const IndexNode& v = nodes[i];
    if (v.edges > nodes[i + 1].edges || v.outputs > nodes[i + 1].outputs) return false;
    if (i > 0 && (v.fail >= i || v.out_link >= i)) return false;  // links point back: walks end
    for (uint32_t e = v.edges; e < nodes[i + 1].edges; ++e) {
      if (edges[e].byte > 255 || edges[e].target <= i || edges[e].target >= n) return false;
      if (e > v.edges && edges[e].byte <= edges[e - 1].byte) return false;  // sorted, for step()
    }
  }
  for (uint32_t id : outputs)
    if (id >= id_limit) return false;
  return true;
}

LiteralIndex::LiteralIndex(const std::vector<std::string_view>& keys, const std::vector<uint32_t>& ids) {
  // 1. A trie over the sorted keys, numbered depth first: each key shares the
  //    path of its common prefix with the key before it. Children appear in
  //    increasing byte order because the keys are sorted.
  std::vector<uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
  struct TrieEdge {
    uint32_t parent, byte, child;
  };
  std::vector<TrieEdge> trie;
  std::vector<std::pair<uint32_t, uint32_t>> ends;  // (node, id)
  std::vector<uint32_t> path{0};
  std::string_view previous;
  uint32_t count = 1;
  for (uint32_t k : order) {
    std::string_view key = keys[k];
    if (key.empty()) continue;
    size_t common = 0;
    while (common < key.size() && common < previous.size() && key[common] == previous[common]) ++common;
    path.resize(common + 1);
    for (size_t d = common; d < key.size(); ++d) {
      trie.push_back({path.back(), static_cast<unsigned char>(key[d]), count});
      path.push_back(count++);
    }
    ends.emplace_back(path.back(), ids[k]);
    previous = key;
  }

  // 2. Renumbered breadth first (links then always point to lower numbers).
  std::vector<uint32_t> first(count + 1, 0);
  for (const auto& e : trie) ++first[e.parent + 1];
  std::partial_sum(first.begin(), first.end(), first.begin());
  std::vector<uint32_t> child(trie.size()), child_byte(trie.size()), fill(first.begin(), first.end() - 1);
  for (const auto& e : trie) {  // stable: bytes stay in increasing order
    child[fill[e.parent]] = e.child;
    child_byte[fill[e.parent]++] = e.byte;
  }
  std::vector<uint32_t> bfs{0}, renamed(count, 0);
  bfs.reserve(count);
  for (size_t i = 0; i < bfs.size(); ++i)
    for (uint32_t e = first[bfs[i]]; e < first[bfs[i] + 1]; ++e) {
      renamed[child[e]] = uint32_t(bfs.size());
      bfs.push_back(child[e]);
    }

  nodes_.assign(count + 1, IndexNode{});
  edges_.reserve(trie.size());
  for (uint32_t v = 0; v < count; ++v) {
    nodes_[v].edges = uint32_t(edges_.size());
    for (uint32_t e = first[bfs[v]]; e < first[bfs[v] + 1]; ++e) edges_.push_back({child_byte[e], renamed[child[e]]});
  }
  nodes_[count].edges = uint32_t(edges_.size());

  for (auto& [node, id] : ends) node = renamed[node];
  std::stable_sort(ends.begin(), ends.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  size_t at = 0;
  for (uint32_t v = 0; v <= count; ++v) {
    nodes_[v].outputs = uint32_t(at);
    while (at < ends.size() && ends[at].first == v) outputs_.push_back(ends[at++].second);
  }

  // 3. Fail and output links, parents before children.
  IndexView view = this->view();
  for (uint32_t u = 0; u < count; ++u)
    for (uint32_t e = nodes_[u].edges; e < nodes_[u + 1].edges; ++e) {
      uint32_t v = edges_[e].target, fail = 0;
      for (uint32_t f = nodes_[u].fail; u != 0;) {
        if (uint32_t t = view.step(f, static_cast<unsigned char>(edges_[e].byte))) {
          fail = t;
          break;
        }
        if (f == 0) break;
        f = nodes_[f].fail;
      }
      nodes_[v].fail = fail;
      bool fail_outputs = nodes_[fail].outputs != nodes_[fail + 1].outputs;
      nodes_[v].out_link = fail_outputs ? fail : nodes_[fail].out_link;
    }
}

}  // namespace cudaleak::gate
