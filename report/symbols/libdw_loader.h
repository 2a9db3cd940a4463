// elfutils libdw, loaded on demand with dlopen(RTLD_LOCAL) when a report is
// symbolized: libdw.a cannot be linked into a shared object (its TLS is not
// PIC), and loading it only at report time keeps it out of the host's symbol
// scope (see bundled_library.h).
#pragma once
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

namespace cudaleak::symbols {

struct Libdw {
  decltype(&dwfl_begin) begin;
  decltype(&dwfl_end) end;
  decltype(&dwfl_linux_proc_report) linux_proc_report;
  decltype(&dwfl_report_end) report_end;
  decltype(&dwfl_addrmodule) addrmodule;
  decltype(&dwfl_module_info) module_info;
  decltype(&dwfl_module_addrinfo) module_addrinfo;
  decltype(&dwfl_module_getelf) module_getelf;
  decltype(&dwfl_module_getsrc) module_getsrc;
  decltype(&dwfl_lineinfo) lineinfo;
  decltype(&dwfl_line_comp_dir) line_comp_dir;
  decltype(&dwfl_linux_proc_find_elf) linux_proc_find_elf;
  decltype(&dwfl_standard_find_debuginfo) standard_find_debuginfo;
  // Offline: modules reported from files at recorded addresses.
  decltype(&dwfl_report_begin) report_begin;
  decltype(&dwfl_report_elf) report_elf;
  decltype(&dwfl_offline_section_address) offline_section_address;
  decltype(&dwfl_build_id_find_elf) build_id_find_elf;
  // Inline expansion.
  decltype(&dwfl_module_addrdie) module_addrdie;
  decltype(&dwarf_getscopes) getscopes;
  decltype(&dwarf_getscopes_die) getscopes_die;
  decltype(&dwarf_tag) tag;
  decltype(&dwarf_diename) diename;
  decltype(&dwarf_attr_integrate) attr_integrate;
  decltype(&dwarf_formstring) formstring;
  decltype(&dwarf_formudata) formudata;
  decltype(&dwarf_getsrcfiles) getsrcfiles;
  decltype(&dwarf_filesrc) filesrc;
};

// nullptr when libdw cannot be loaded; symbolization then falls back to dladdr.
const Libdw* load_libdw();

}  // namespace cudaleak::symbols
