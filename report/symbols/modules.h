// The objects loaded in this process, with the GNU build-id that lets a report
// be symbolized again later on another machine.
#pragma once
#include <vector>

#include "../model/report.h"

namespace cudaleak::symbols {

std::vector<report::Module> loaded_modules();
report::Process current_process();

// GNU build-id of an ELF file on disk, hex; empty when unreadable or absent.
std::string file_build_id(const std::string& path);

}  // namespace cudaleak::symbols
