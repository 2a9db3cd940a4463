// Source lines of device code: the line table ptxas writes into a cubin
// compiled with -lineinfo (or -G). nvcc 13 writes two DWARF line programs
// over the SASS addresses of each kernel's .text section: `.debug_line`,
// whose rows name the CUDA source (file table: "app.cu" and its directory),
// and `.nv_debug_line_sass`, whose rows are lines of the embedded PTX (no
// file table). The first is read. Each sequence starts with a
// DW_LNE_set_address that the cubin's `.rela.debug_line` relocates against
// its kernel's symbol, so rows are kept per function, as offsets from the
// function's first instruction: the pc a Compute Sanitizer patch reports,
// less the start that sanitizerGetFunctionPcAndSize gives for the kernel.
// Device functions compiled into a kernel (whole-program mode) lie inside
// its section and its sequence.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaleak::symbols {

struct DeviceLine {
  std::string file;  // as the line table names it: directory/file when it has both
  int line = 0;      // 0: not known
};

class DeviceLineTable {
 public:
  // The table of a cubin (a 64-bit ELF) of `size` bytes: empty when it has
  // no line information, or when anything is malformed. Bounded: a line
  // section over 64 MiB, or more than 4 Mi rows, gives an empty table.
  static DeviceLineTable read(const void* cubin, size_t size);

  bool empty() const { return functions_.empty(); }
  // Whether the cubin's kernels call device-side malloc (an undefined
  // `malloc` function in its symbol table).
  bool calls_malloc() const { return calls_malloc_; }

  // The line of the instruction `offset` bytes into `function` (its symbol
  // name, mangled); line 0 when the table does not cover it.
  DeviceLine at(std::string_view function, uint64_t offset) const;
  // The first offset in `function` whose row has `line` (tests and the
  // simulated GPU, which report the pc of a known source line).
  std::optional<uint64_t> offset_of(std::string_view function, int line) const;

  size_t rows() const;

 private:
  struct Row {
    uint32_t offset;
    uint32_t file;  // index into files_
    int32_t line;
  };
  struct Function {
    std::string name;
    std::vector<Row> rows;  // by offset; a row of line -1 ends a sequence
  };
  friend class LineProgramReader;
  std::vector<std::string> files_;
  std::vector<Function> functions_;
  bool calls_malloc_ = false;
};

}  // namespace cudaleak::symbols
