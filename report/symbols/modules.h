// The objects loaded in this process, with the GNU build-id that lets a report
// be symbolized again later on another machine.
#pragma once
#include <vector>

#include "report/model/report.h"

namespace cudaleak::symbols {

std::vector<report::Module> loaded_modules();
report::Process current_process();

// Read from module files a report names, with bounded reads, never from a
// FIFO, a device or a directory (io/input_file.h).
// GNU build-id of an ELF file on disk, hex; empty when unreadable or absent.
std::string file_build_id(const std::string& path);
// Lowest PT_LOAD address of an ELF file, page-aligned: what its first mapping
// (offset 0) corresponds to. 0 for shared objects and PIE (and files that are
// not ELF), the link address for position-dependent executables.
uint64_t file_first_load_address(const std::string& path);

}  // namespace cudaleak::symbols
