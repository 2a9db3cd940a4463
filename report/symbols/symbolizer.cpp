#include "report/symbols/symbolizer.h"

#include "common/proc_self.h"
#include "report/model/cuda_frames.h"
#include "report/symbols/libdw_loader.h"
#include "report/symbols/modules.h"
#include "report/symbols/symbol_index.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <dlfcn.h>
#include <unistd.h>

#include <link.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <unordered_map>

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
  std::vector<report::Frame> resolve(uint64_t ip, bool return_address) override {
    report::Frame f;
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(return_address ? ip - 1 : ip), &info) && info.dli_fname)
      f.module = info.dli_fname;
    return {f};
  }
};

class DwflSymbolizer : public report::FrameResolver {
 public:
  // The live process: modules from its maps in /proc, under the number /proc
  // knows it by (not getpid() in a PID namespace that shares the parent's /proc).
  DwflSymbolizer() : dw_(load_libdw()) {
    if (!dw_) return;
    callbacks_.find_elf = dw_->linux_proc_find_elf;
    callbacks_.find_debuginfo = dw_->standard_find_debuginfo;
    callbacks_.debuginfo_path = nullptr;
    dwfl_ = dw_->begin(&callbacks_);
    if (dwfl_ &&
        (dw_->linux_proc_report(dwfl_, proc_self_pid()) != 0 || dw_->report_end(dwfl_, nullptr, nullptr) != 0)) {
      dw_->end(dwfl_);
      dwfl_ = nullptr;
    }
  }

  // Files found for a report's modules, at the addresses they had.
  DwflSymbolizer(const std::vector<std::pair<std::string, uint64_t>>& files, const std::string& debuginfo_path)
      : dw_(load_libdw()), debuginfo_path_(debuginfo_path) {
    if (!dw_) return;
    callbacks_.find_elf = dw_->build_id_find_elf;
    callbacks_.find_debuginfo = dw_->standard_find_debuginfo;
    callbacks_.section_address = dw_->offline_section_address;
    callbacks_.debuginfo_path = &debuginfo_path_ptr_;
    debuginfo_path_ptr_ = const_cast<char*>(debuginfo_path_.c_str());
    dwfl_ = dw_->begin(&callbacks_);
    if (!dwfl_) return;
    dw_->report_begin(dwfl_);
    for (const auto& [path, base] : files) dw_->report_elf(dwfl_, path.c_str(), path.c_str(), -1, base, false);
    if (dw_->report_end(dwfl_, nullptr, nullptr) != 0) {
      dw_->end(dwfl_);
      dwfl_ = nullptr;
    }
  }
  ~DwflSymbolizer() override {
    if (dwfl_) dw_->end(dwfl_);
  }

  std::vector<report::Frame> resolve(uint64_t ip, bool return_address) override {
    Dwarf_Addr addr = return_address ? ip - 1 : ip;  // the call, not the instruction after it
    Dwfl_Module* module = dwfl_ ? dw_->addrmodule(dwfl_, addr) : nullptr;
    if (!module) return {offline() ? report::Frame{} : resolve_with_dladdr(addr)};
    report::Frame f;
    // The module's name is the path it was reported under (the process's
    // maps, as the report's modules list has it): every frame of a module
    // names it alike. Its main file is known only once libdw has loaded it,
    // and may be another name of the same file.
    const char* path = nullptr;
    const char* reported = dw_->module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, &path, nullptr);
    if (reported && reported[0] == '/') f.module = reported;  // absolute, unlike dladdr's name for the main program
    else if (path && path[0] == '/') f.module = path;
    GElf_Off offset = 0;
    const char* name = nullptr;
    if (const SymbolIndex* index = index_of(module, f.module)) {
      // A large object: looked up in its sorted table, never scanned (symbol_index.h).
      Dwarf_Addr bias = 0;
      uint64_t in_symbol = 0;
      if (dw_->module_getelf(module, &bias) && (name = index->lookup(addr - bias, &in_symbol))) offset = in_symbol;
    } else {
      GElf_Sym sym;
      name = dw_->module_addrinfo(module, addr, &offset, &sym, nullptr, nullptr, nullptr);
      if (!name && !offline()) {  // no usable symbol table: the dynamic linker's names
        report::Frame linker = resolve_with_dladdr(addr);
        if (f.module.empty()) f.module = linker.module;
        f.function = linker.function;
      }
    }
    if (f.module.empty() && !offline()) f.module = resolve_with_dladdr(addr).module;
    if (name) f.function = demangle(name);
    // The simulated GPU's libraries read as NVIDIA's, which carry no line
    // information: their source never shows in a user's stack.
    if (report::is_simulated_cuda_library(f.module)) return {f};
    const char* comp_dir = nullptr;  // where the compiler ran: relative file names are its
    if (Dwfl_Line* line = dw_->module_getsrc(module, addr)) {
      comp_dir = dw_->line_comp_dir(line);
      int lineno = 0;
      Dwarf_Addr line_addr = 0;
      const char* file = dw_->lineinfo(line, &line_addr, &lineno, nullptr, nullptr, nullptr);
      // A line record from before the function's start belongs to other code:
      // a function without line information (crt1.o's _start) falls after
      // the last record of the unit before it.
      if (file && (!name || line_addr >= addr - offset)) {
        f.file = file;
        f.line = lineno;
      }
    }
    std::vector<report::Frame> frames = expand_inlined(module, addr, f);
    if (frames.empty()) frames = {f};
    // A build in a subdirectory records "../src/x.cu": named from the
    // compiler's directory, as a report read anywhere (and SARIF) needs it.
    if (comp_dir && comp_dir[0] == '/')
      for (report::Frame& frame : frames)
        if (!frame.file.empty() && std::string_view(frame.file).front() != '/')
          frame.file = (std::filesystem::path(comp_dir) / std::string(frame.file)).lexically_normal().string();
    return frames;
  }

 private:
  bool offline() const { return !debuginfo_path_.empty(); }

  // Inline expansion, as eu-addr2line -i does it: the innermost inlined
  // subroutine at addr becomes a frame named after itself at the line table's
  // line; each step outwards (dwarf_getscopes_die on the concrete tree) names
  // the enclosing inlined subroutine or real function, located at the call
  // site recorded by the scope inside it. Empty when nothing is inlined there.
  std::vector<report::Frame> expand_inlined(Dwfl_Module* module, Dwarf_Addr addr, const report::Frame& base) {
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = dw_->module_addrdie(module, addr, &bias);
    if (!cu) return {};
    Dwarf_Die* scopes = nullptr;
    int n = dw_->getscopes(cu, addr - bias, &scopes);
    if (n <= 0) return {};
    Dwarf_Die die;
    bool found = false;
    for (int i = 0; i < n && !found; ++i) {
      int tag = dw_->tag(&scopes[i]);
      if (tag == DW_TAG_inlined_subroutine) die = scopes[i], found = true;
      else if (tag == DW_TAG_subprogram) break;  // innermost function is a real one: nothing inlined
    }
    std::free(scopes);
    if (!found) return {};

    Dwarf_Files* files = nullptr;
    size_t file_count = 0;
    if (dw_->getsrcfiles(cu, &files, &file_count) != 0) files = nullptr;
    std::vector<report::Frame> frames;
    report::Frame f = base;
    for (int depth = 0; depth < 64; ++depth) {
      f.function = function_name(&die, base.function);
      int tag = dw_->tag(&die);
      f.inlined = tag == DW_TAG_inlined_subroutine;
      frames.push_back(f);
      if (!f.inlined) break;
      Dwarf_Attribute attr;
      Dwarf_Word call_file = 0, call_line = 0;
      f.file.clear();
      if (files && dw_->attr_integrate(&die, DW_AT_call_file, &attr) && dw_->formudata(&attr, &call_file) == 0 &&
          call_file < file_count)
        if (const char* name = dw_->filesrc(files, call_file, nullptr, nullptr)) f.file = name;
      f.line = dw_->attr_integrate(&die, DW_AT_call_line, &attr) && dw_->formudata(&attr, &call_line) == 0
                   ? int(call_line)
                   : 0;
      Dwarf_Die* chain = nullptr;
      int m = dw_->getscopes_die(&die, &chain);
      bool next = false;
      for (int j = 1; j < m && !next; ++j) {
        int t = dw_->tag(&chain[j]);
        if (t == DW_TAG_inlined_subroutine || t == DW_TAG_subprogram) die = chain[j], next = true;
      }
      std::free(chain);
      if (!next) {
        frames.back().inlined = false;
        break;
      }
    }
    return frames;
  }

  std::string function_name(Dwarf_Die* die, const std::string& fallback) {
    Dwarf_Attribute attr;
    for (int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
      if (dw_->attr_integrate(die, name, &attr))
        if (const char* s = dw_->formstring(&attr)) return demangle(s);
    }
    if (const char* s = dw_->diename(die)) return s;
    return fallback;
  }

  // The module's sorted symbols (symbol_index.h), looked up once per module
  // rather than once per address (a stat of its file each time).
  const SymbolIndex* index_of(Dwfl_Module* module, const std::string& path) {
    auto [it, fresh] = indexes_.try_emplace(module, nullptr);
    if (fresh && !path.empty()) it->second = indexed_symbols(path);
    return it->second;
  }

  const Libdw* dw_;
  std::unordered_map<Dwfl_Module*, const SymbolIndex*> indexes_;
  std::string debuginfo_path_;
  char* debuginfo_path_ptr_ = nullptr;
  Dwfl_Callbacks callbacks_{};
  Dwfl* dwfl_ = nullptr;
};

// A return address and a plain address may resolve differently (ip - 1).
class RememberingSymbolizer : public report::FrameResolver {
 public:
  std::vector<report::Frame> resolve(uint64_t ip, bool return_address) override {
    auto key = std::make_pair(ip, return_address);
    LoaderCounters now = loader_counters();
    if (now.subs != seen_.subs) {  // an object went away: its addresses may now be another's
      answers_.clear();
      counts.restarts += inner_ ? 1 : 0;
      inner_.reset();
    }
    auto it = answers_.find(key);
    if (it != answers_.end()) {
      ++counts.remembered;
      return it->second;
    }
    // New objects only add addresses: earlier answers stay right, but the
    // module list must be read again to know the new ones.
    if (!inner_ || now.adds != seen_.adds) {
      inner_ = std::make_unique<DwflSymbolizer>();
      now = loader_counters();  // building it may have loaded libdw itself
    }
    seen_ = now;
    ++counts.looked_up;
    return answers_.emplace(key, inner_->resolve(ip, return_address)).first->second;
  }

  SymbolizerCounts counts;

 private:
  // Objects the dynamic linker has loaded and unloaded so far.
  struct LoaderCounters {
    uint64_t adds = 0, subs = 0;
  };
  static LoaderCounters loader_counters() {
    LoaderCounters counters;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t size, void* out) {
          if (size >= offsetof(dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs))
            *static_cast<LoaderCounters*>(out) = {info->dlpi_adds, info->dlpi_subs};
          return 1;  // the counters are the same in every entry: one is enough
        },
        &counters);
    return counters;
  }

  std::unique_ptr<DwflSymbolizer> inner_;
  LoaderCounters seen_;
  std::map<std::pair<uint64_t, bool>, std::vector<report::Frame>> answers_;
};

}  // namespace

namespace {
RememberingSymbolizer& remembering() {
  static auto* symbolizer = new RememberingSymbolizer();  // never destroyed: reports run during exit
  return *symbolizer;
}
}  // namespace

report::FrameResolver& process_symbolizer() { return remembering(); }
SymbolizerCounts process_symbolizer_counts() { return remembering().counts; }

std::unique_ptr<report::FrameResolver> make_module_resolver() { return std::make_unique<ModuleResolver>(); }

std::unique_ptr<report::FrameResolver> make_offline_symbolizer(const std::vector<report::Module>& modules,
                                                               const std::vector<std::string>& debug_dirs,
                                                               std::vector<std::string>* missing) {
  std::vector<std::pair<std::string, uint64_t>> files;
  for (const auto& m : modules) {
    // The kernel's vDSO is in every process and never in a file: nothing to find, nothing to warn about.
    if (m.path == "linux-vdso.so.1" || m.path == "[vdso]" || m.path == "linux-gate.so.1" ||
        m.path.ends_with("/linux-vdso.so.1"))
      continue;
    std::vector<std::string> candidates = {m.path};
    std::string base = m.path.substr(m.path.rfind('/') + 1);
    for (const auto& dir : debug_dirs) {
      candidates.push_back(dir + "/" + base);
      if (m.build_id.size() > 2) {
        std::string by_id = dir + "/.build-id/" + m.build_id.substr(0, 2) + "/" + m.build_id.substr(2);
        candidates.push_back(by_id);
        candidates.push_back(by_id + ".debug");
      }
    }
    std::string found;
    for (const auto& c : candidates) {
      std::string id = file_build_id(c);
      if (!id.empty() && (m.build_id.empty() || id == m.build_id)) {
        found = c;
        break;
      }
    }
    if (found.empty()) {
      if (missing) missing->push_back(m.path + (m.build_id.empty() ? "" : " (build-id " + m.build_id + ")"));
      continue;
    }
    files.emplace_back(found, m.base);
  }
  std::string path = "+:.debug:/usr/lib/debug";
  for (const auto& dir : debug_dirs) path += ":" + dir;
  return std::make_unique<DwflSymbolizer>(files, path);
}

void symbolize_report(report::Report& r, report::FrameResolver& resolver) {
  auto redo = [&](std::vector<report::Frame>& stack) {
    std::vector<report::Frame> out;
    for (const auto& f : stack) {
      if (f.python) {  // nothing to resolve
        out.push_back(f);
        continue;
      }
      if (f.inlined) continue;  // re-expanded from its physical frame below
      std::vector<report::Frame> resolved = resolver.resolve(f.ip, true);
      for (auto& x : resolved) {
        x.ip = f.ip;
        if (x.module.empty()) x.module = f.module;
      }
      if (resolved.empty() || (resolved.size() == 1 && resolved[0].function.empty())) resolved = {f};
      out.insert(out.end(), resolved.begin(), resolved.end());
    }
    stack = std::move(out);
  };
  for (auto& g : r.leaks) redo(g.stack);
  for (auto& n : r.notes) redo(n.stack);
  for (auto& d : r.timeline.devices) {
    for (auto& g : d.peak.groups) redo(g.stack);
    for (auto& site : d.sites) redo(site.stack);
  }
  for (auto& e : r.oom_events) {
    redo(e.stack);
    for (auto& site : e.top_sites) redo(site.stack);
    for (auto& a : e.attempts) redo(a.stack);
    for (auto& v : e.reservations) redo(v.stack);
  }
  for (auto& v : r.reservations) redo(v.stack);
  r.symbolized = true;
}

}  // namespace cudaleak::symbols
