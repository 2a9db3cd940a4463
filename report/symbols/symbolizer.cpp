#include "symbolizer.h"

#include "libdw_loader.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>

namespace cudaleak::symbols {

namespace {

std::string demangle(const char* name) {
  if (!name) return "";
  int status = 0;
  char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !out) return name;
  std::string s(out);
  std::free(out);
  return s;
}

// Module and symbol through the dynamic linker: no debug info needed.
report::Frame resolve_with_dladdr(uint64_t ip) {
  report::Frame f;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(ip), &info)) {
    if (info.dli_fname) f.module = info.dli_fname;
    if (info.dli_sname) f.function = demangle(info.dli_sname);
  }
  return f;
}

class ModuleResolver : public report::FrameResolver {
 public:
  report::Frame resolve(uint64_t ip, bool return_address) override {
    report::Frame f;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(return_address ? ip - 1 : ip), &info) && info.dli_fname) f.module = info.dli_fname;
    return f;
  }
};

class DwflSymbolizer : public report::FrameResolver {
 public:
  DwflSymbolizer() : dw_(load_libdw()) {
    if (!dw_) return;
    callbacks_.find_elf = dw_->linux_proc_find_elf;
    callbacks_.find_debuginfo = dw_->standard_find_debuginfo;
    callbacks_.debuginfo_path = nullptr;
    dwfl_ = dw_->begin(&callbacks_);
    if (dwfl_ && (dw_->linux_proc_report(dwfl_, getpid()) != 0 || dw_->report_end(dwfl_, nullptr, nullptr) != 0)) {
      dw_->end(dwfl_);
      dwfl_ = nullptr;
    }
  }
  ~DwflSymbolizer() override {
    if (dwfl_) dw_->end(dwfl_);
  }

  report::Frame resolve(uint64_t ip, bool return_address) override {
    Dwarf_Addr addr = return_address ? ip - 1 : ip;  // the call, not the instruction after it
    report::Frame f = resolve_with_dladdr(addr);
    Dwfl_Module* module = dwfl_ ? dw_->addrmodule(dwfl_, addr) : nullptr;
    if (!module) return f;
    const char* path = nullptr;
    dw_->module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, &path, nullptr);
    if (path && f.module.empty()) f.module = path;
    GElf_Off offset = 0;
    GElf_Sym sym;
    if (const char* name = dw_->module_addrinfo(module, addr, &offset, &sym, nullptr, nullptr, nullptr))
      f.function = demangle(name);
    if (Dwfl_Line* line = dw_->module_getsrc(module, addr)) {
      int lineno = 0;
      if (const char* file = dw_->lineinfo(line, nullptr, &lineno, nullptr, nullptr, nullptr)) {
        f.file = file;
        f.line = lineno;
      }
    }
    return f;
  }

 private:
  const Libdw* dw_;
  Dwfl_Callbacks callbacks_{};
  Dwfl* dwfl_ = nullptr;
};

}  // namespace

std::unique_ptr<report::FrameResolver> make_process_symbolizer() { return std::make_unique<DwflSymbolizer>(); }
std::unique_ptr<report::FrameResolver> make_module_resolver() { return std::make_unique<ModuleResolver>(); }

}  // namespace cudaleak::symbols
