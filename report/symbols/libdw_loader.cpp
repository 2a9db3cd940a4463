#include "report/symbols/libdw_loader.h"

#include <dlfcn.h>

#include <mutex>
#include "common/private_library.h"

namespace cudaleak::symbols {

namespace {

void* open_libdw() {
  return open_private_library("libdw.so.1",
                              {"libz.so.1", "liblzma.so.5", "libbz2.so.1.0", "libzstd.so.1", "libelf.so.1"});
}

template <typename Fn>
bool bind(void* handle, const char* name, Fn& slot) {
  slot = reinterpret_cast<Fn>(dlsym(handle, name));
  return slot != nullptr;
}

}  // namespace

const Libdw* load_libdw() {
  static Libdw table;
  static const Libdw* loaded = []() -> const Libdw* {
    void* h = open_libdw();
    if (!h) return nullptr;
    bool ok = bind(h, "dwfl_begin", table.begin) && bind(h, "dwfl_end", table.end) &&
              bind(h, "dwfl_linux_proc_report", table.linux_proc_report) &&
              bind(h, "dwfl_report_end", table.report_end) && bind(h, "dwfl_addrmodule", table.addrmodule) &&
              bind(h, "dwfl_module_info", table.module_info) &&
              bind(h, "dwfl_module_addrinfo", table.module_addrinfo) &&
              bind(h, "dwfl_module_getelf", table.module_getelf) &&
              bind(h, "dwfl_module_getsrc", table.module_getsrc) && bind(h, "dwfl_lineinfo", table.lineinfo) &&
              bind(h, "dwfl_line_comp_dir", table.line_comp_dir) &&
              bind(h, "dwfl_linux_proc_find_elf", table.linux_proc_find_elf) &&
              bind(h, "dwfl_standard_find_debuginfo", table.standard_find_debuginfo) &&
              bind(h, "dwfl_module_addrdie", table.module_addrdie) && bind(h, "dwarf_getscopes", table.getscopes) &&
              bind(h, "dwfl_report_begin", table.report_begin) && bind(h, "dwfl_report_elf", table.report_elf) &&
              bind(h, "dwfl_offline_section_address", table.offline_section_address) &&
              bind(h, "dwfl_build_id_find_elf", table.build_id_find_elf) &&
              bind(h, "dwarf_getscopes_die", table.getscopes_die) && bind(h, "dwarf_tag", table.tag) &&
              bind(h, "dwarf_diename", table.diename) && bind(h, "dwarf_attr_integrate", table.attr_integrate) &&
              bind(h, "dwarf_formstring", table.formstring) && bind(h, "dwarf_formudata", table.formudata) &&
              bind(h, "dwarf_getsrcfiles", table.getsrcfiles) && bind(h, "dwarf_filesrc", table.filesrc);
    return ok ? &table : nullptr;
  }();
  return loaded;
}

}  // namespace cudaleak::symbols
