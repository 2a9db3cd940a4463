// The function symbols of a large object, sorted once by address. libdw's
// dwfl_module_addrinfo and glibc's dladdr look at every symbol of an object
// for each address: nothing on a program's own objects, 22 ms an address in
// jaxlib's (137 addresses at a JAX process's exit took 3.1 s on an H200,
// docs/performance.md). Objects with at least kIndexedSymbols symbols are
// read here instead, from their own .symtab (else .dynsym).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace cudaleak::symbols {

// Below this, libdw's scan costs less than sorting, and its answers stay
// exactly what they have always been.
constexpr size_t kIndexedSymbols = 20000;

class SymbolIndex {
 public:
  // The object at `path` when its symbol table holds at least `min_symbols`
  // symbols; nullptr when it holds fewer, or cannot be read as a 64-bit ELF.
  static std::unique_ptr<SymbolIndex> load(const std::string& path, size_t min_symbols = kIndexedSymbols);
  ~SymbolIndex();
  SymbolIndex(const SymbolIndex&) = delete;
  SymbolIndex& operator=(const SymbolIndex&) = delete;

  // The (mangled) name of the symbol that contains `vaddr`, an address in
  // the object's own layout (a runtime address less the load bias), and the
  // offset of `vaddr` in it; nullptr when none does.
  const char* lookup(uint64_t vaddr, uint64_t* offset = nullptr) const;
  size_t size() const { return symbols_.size(); }

 private:
  struct Symbol {
    uint64_t value = 0;
    uint64_t size = 0;
    uint32_t name = 0;   // offset in the string table
    uint32_t order = 0;  // its place in the table: at one address and rank, the first names it
    uint8_t rank = 0;    // at one address, the lowest rank names it: global, weak, then local
  };
  SymbolIndex() = default;

  const void* map_ = nullptr;
  size_t map_size_ = 0;
  const char* strings_ = nullptr;
  size_t strings_size_ = 0;
  std::vector<Symbol> symbols_;
  uint64_t largest_ = 0;  // the largest symbol's size: how far back a containing symbol can start
};

// One index per object file, kept for the process's life (reports run
// during exit) and shared by every symbolizer of the process; keyed by the
// file's identity (device, inode, size, time), so that a file replaced on
// disk is read again. nullptr for small or unreadable objects. The caller
// serializes its use (the report lock, or the one thread of `cudaleak`).
const SymbolIndex* indexed_symbols(const std::string& path);

}  // namespace cudaleak::symbols
