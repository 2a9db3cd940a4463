// Every kind beyond memory, streams and events, end to end under the
// simulated GPU: graphs, executable graphs, graph memory, modules, libraries,
// texture and surface objects, IPC mappings, external memory and semaphores,
// and library handles with what their creation made grouped under them.
#include <catch2/catch.hpp>

#include <set>

#include "tests/e2e/harness.h"
#include "report/render/text_report.h"

using namespace e2e;
using cudaleak::report::LeakGroup;
using cudaleak::report::Report;

namespace {

using Run = ReportedRun;
const auto run_program = run_with_report;

Report run_every_kind(const std::string& name, const std::string& mode) {
  return run_program(name, {program("every_kind"), mode}).report;
}

std::vector<std::string> module_globals(const std::string& mode, const std::string& fatbin = ".fatbin") {
  std::string kernels = std::string(CUDALEAK_BUILD_DIR) + "/tests/e2e/module_globals_kernels";
  return {program("module_globals"), mode, kernels + ".cubin", kernels + fatbin};
}

uint64_t count_of(const Report& r, const std::string& kind) {
  Kind k;
  if (!cudaleak::report::parse_name(kind, k)) throw std::invalid_argument("no kind " + kind);
  auto it = r.summary.by_kind.find(k);
  return it == r.summary.by_kind.end() ? 0 : it->second.count;
}

const LeakGroup* group_by_api(const Report& r, const std::string& kind, const std::string& api) {
  for (const LeakGroup& g : r.leaks)
    if (cudaleak::report::text_of(g.kind) == kind && g.api == api) return &g;
  return nullptr;
}

}  // namespace

TEST_CASE("every kind: each leaked resource is found once, with its API and the program's line") {
  Report r = run_every_kind("kinds_leak", "leak");
  CHECK(count_of(r, "graph") == 3);  // created, cloned, captured
  CHECK(count_of(r, "graph_exec") == 1);
  CHECK(count_of(r, "module") == 1);
  CHECK(count_of(r, "library") == 1);  // not the one cuBLAS loaded for its own kernels
  CHECK(count_of(r, "texture") == 1);
  CHECK(count_of(r, "surface") == 1);
  CHECK(count_of(r, "ipc_mapping") == 3);  // IPC handle, pool pointer, shareable VMM handle
  CHECK(count_of(r, "pool") == 1);         // imported from another process's export
  CHECK(count_of(r, "external_memory") == 1);
  CHECK(count_of(r, "external_semaphore") == 1);
  for (auto [kind, api] : {std::pair{"graph", "cuGraphCreate"},
                           {"graph", "cuGraphClone"},
                           {"graph", "cuStreamEndCapture"},
                           {"graph_exec", "cuGraphInstantiateWithFlags"},
                           {"module", "cuModuleLoadData"},
                           {"library", "cuLibraryLoadData"},
                           {"texture", "cuTexObjectCreate"},
                           {"surface", "cuSurfObjectCreate"},
                           {"ipc_mapping", "cuIpcOpenMemHandle_v2"},
                           {"ipc_mapping", "cuMemPoolImportPointer"},
                           {"ipc_mapping", "cuMemImportFromShareableHandle"},
                           {"pool", "cuMemPoolImportFromShareableHandle"},
                           {"external_semaphore", "cuImportExternalSemaphore"}}) {
    INFO(kind << " " << api);
    const LeakGroup* g = group_by_api(r, kind, api);
    REQUIRE(g);
    CHECK(g->count == 1);
    CHECK((stack_has(*g, "main") || stack_has(*g, "make_graphs")));
  }
  // Imported memory counts what it keeps alive; external memory is listed, not added.
  CHECK(group_by_api(r, "ipc_mapping", "cuIpcOpenMemHandle_v2")->bytes == 256 << 10);
  CHECK(group_by_api(r, "external_memory", "cuImportExternalMemory")->bytes == 8 << 20);
  CHECK(group_by_api(r, "device", "cuExternalMemoryGetMappedBuffer")->bytes == 1 << 20);
}

TEST_CASE("every kind: graph memory lives on after instantiation and dies with a graph that never ran") {
  Report r = run_every_kind("kinds_graph_memory", "leak");
  // The allocation node of the instantiated graph and the allocation made
  // during capture; not the node of the graph destroyed uninstantiated.
  CHECK(count_of(r, "graph_memory") == 2);
  const LeakGroup* node = group_by_api(r, "graph_memory", "cuGraphAddMemAllocNode");
  REQUIRE(node);
  CHECK(node->bytes == 1 << 20);
  const LeakGroup* captured = group_by_api(r, "graph_memory", "cuMemAllocAsync");
  REQUIRE(captured);
  CHECK(captured->bytes == 64 << 10);
  CHECK(captured->allocations.at(0).record.stream != 0);  // the graph it belongs to
  CHECK(count_of(r, "async") == 0);
  CHECK(r.notes.empty());
}

TEST_CASE("every kind: library handles are counted exactly and hold what their creation made") {
  Report r = run_every_kind("kinds_handles", "leak");
  const LeakGroup* blas = group_by_api(r, "library_handle", "cublasCreate_v2");
  REQUIRE(blas);
  CHECK(blas->count == 3);  // the fourth was destroyed
  CHECK(stack_has(*blas, "open_solver"));
  CHECK(blas->holds.at(Kind::Device).count == 9);
  CHECK(blas->holds.at(Kind::Device).bytes == 3 * ((4 << 20) + (128 << 10) + 1024));
  CHECK(blas->holds.at(Kind::Event).count == 24);
  CHECK(blas->holds.at(Kind::Stream).count == 6);
  CHECK(blas->holds.count(Kind::Library) == 0);  // its own device code: the library's, not the program's
  // cuSOLVER's own cuBLAS handle is part of the cuSOLVER handle, not a handle of the program's.
  const LeakGroup* solver = group_by_api(r, "library_handle", "cusolverDnCreate");
  REQUIRE(solver);
  CHECK(solver->count == 1);
  // cuBLASLt handed out one handle twice and got one destroy: one alive.
  const LeakGroup* lt = group_by_api(r, "library_handle", "cublasLtCreate");
  REQUIRE(lt);
  CHECK(lt->count == 1);
  CHECK(count_of(r, "library_handle") == 5);
  CHECK(solver->holds.at(Kind::Device).count == 4);
  // The driver resources stay in the report, each with its handle.
  const LeakGroup* events = group_by_api(r, "event", "cublasCreate_v2");
  REQUIRE(events);
  CHECK(events->owner == "cublasCreate_v2");
  for (const auto& a : events->allocations) CHECK(a.owner != 0);
  // Our own hook frames never show in a stack.
  for (const LeakGroup& g : r.leaks)
    for (const auto& f : g.stack) CHECK(f.module.find("libcudaleak") == std::string::npos);
}

TEST_CASE("every kind: the text names library handles as users know them and lists what they hold once") {
  auto [res, report] = run_program("kinds_text", {program("every_kind"), "leak"});
  CHECK(res.err.find("3 cuBLAS handles never destroyed (cublasDestroy), created by cublasCreate_v2 on device 0, "
                     "holding 12.4 MiB of device memory, 6 streams, 24 events:") != std::string::npos);
  CHECK(res.err.find("1 cuSOLVER dense handle never destroyed (cusolverDnDestroy)") != std::string::npos);
  CHECK(res.err.find("24 events never destroyed") == std::string::npos);  // shown under the handle
  // An imported VMM handle has no size until it is mapped: not "0 B".
  cudaleak::render::TextOptions all;
  all.max_groups = 0;
  CHECK(cudaleak::render::render_text(report, all)
            .find("1 allocation of IPC-mapped memory of unknown size never freed, created by "
                  "cuMemImportFromShareableHandle") != std::string::npos);
}

TEST_CASE("every kind: a program that releases everything reports nothing") {
  Report r = run_every_kind("kinds_clean", "clean");
  CHECK(r.leaks.empty());
  CHECK(r.notes.empty());
  CHECK(r.summary.leaked_count == 0);
}

TEST_CASE("static libraries: handles are found by the stack of what their creation made") {
  auto [res, r] = run_program("kinds_static", {program("static_handles"), "leak"});
  const LeakGroup* blas = group_by_api(r, "library_handle", "cublasCreate_v2");
  REQUIRE(blas);
  CHECK(blas->attributed_by_stack);
  CHECK(blas->count == 0);                             // not known: nothing saw the creates
  CHECK(blas->stack.at(0).function == "open_blas()");  // the caller of the create, as for an interposed one
  // Two handles alive: their resources, not the destroyed third's.
  CHECK(blas->holds.at(Kind::Device).count == 6);
  CHECK(blas->holds.at(Kind::Device).bytes == 2 * ((4 << 20) + (128 << 10) + 1024));
  CHECK(blas->holds.at(Kind::Event).count == 16);
  CHECK(blas->holds.at(Kind::Stream).count == 4);
  // The library's own kernels, loaded inside its create, are not the program's to unload.
  CHECK(blas->holds.count(Kind::Library) == 0);
  CHECK(count_of(r, "library") == 0);
  // cuSOLVER's own cuBLAS handle belongs to the cuSOLVER handle (the outermost create).
  const LeakGroup* solver = group_by_api(r, "library_handle", "cusolverDnCreate");
  REQUIRE(solver);
  CHECK(solver->attributed_by_stack);
  CHECK(solver->holds.at(Kind::Device).count == 4);
  // The resources stay in the report, each with the create that made it; the
  // summary counts them, not the handles it cannot count.
  const LeakGroup* events = group_by_api(r, "event", "cublasCreate_v2");
  REQUIRE(events);
  CHECK(!events->owner.empty());
  CHECK(count_of(r, "library_handle") == 0);
  CHECK(count_of(r, "device") == 10);
  CHECK(count_of(r, "event") == 24);
  CHECK(res.err.find("cuBLAS handles never destroyed (cublasDestroy), created by cublasCreate_v2 on device 0, "
                     "holding 8.3 MiB of device memory, 4 streams, 16 events (found by stack: cublasCreate_v2 is "
                     "linked into the program statically, so how many handles is not known):") != std::string::npos);
  CHECK(res.err.find("16 events never destroyed") == std::string::npos);  // shown under the handle
}

TEST_CASE("static libraries: a program that destroys its handles reports nothing") {
  Report r = run_program("kinds_static_clean", {program("static_handles"), "clean"}).report;
  CHECK(r.leaks.empty());
  CHECK(r.summary.leaked_count == 0);
}

TEST_CASE("modules: a module never unloaded holds its device globals, read from the cubin or fatbin") {
  auto [res, r] = run_program("kinds_module_globals", module_globals("leak"));
  constexpr uint64_t kGlobals = (1 << 20) + (4 << 10);  // .nv.global + .nv.global.init
  const LeakGroup* from_file = group_by_api(r, "module", "cuModuleLoad");
  REQUIRE(from_file);
  CHECK(from_file->bytes == kGlobals);
  // cuModuleLoadData, one line each: the fatbin's globals; the PTX's 4 KiB array.
  std::multiset<uint64_t> loaded_data;
  for (const LeakGroup& g : r.leaks)
    if (g.kind == Kind::Module && g.api == "cuModuleLoadData") loaded_data.insert(g.bytes);
  CHECK(loaded_data == std::multiset<uint64_t>{4096, kGlobals});
  const LeakGroup* library = group_by_api(r, "library", "cuLibraryLoadData");
  REQUIRE(library);
  CHECK(library->bytes == kGlobals);
  CHECK(count_of(r, "module") == 3);
  // Listed, not added: leaked_bytes counts memory kinds only.
  CHECK(r.summary.leaked_bytes == 0);
  CHECK(res.err.find("1 module never unloaded, created by cuModuleLoad on device 0, holding 1.0 MiB of device "
                     "globals") != std::string::npos);
}

TEST_CASE("modules: a fatbin that nvcc compressed (LZ4, Zstandard) holds the globals of the uncompressed one") {
  constexpr uint64_t kGlobals = (1 << 20) + (4 << 10);
  for (const char* fatbin : {".lz4.fatbin", ".zstd.fatbin"}) {
    INFO(fatbin);
    Report r = run_program(std::string("kinds_module_globals") + fatbin, module_globals("leak", fatbin)).report;
    std::multiset<uint64_t> loaded_data;
    for (const LeakGroup& g : r.leaks)
      if (g.kind == Kind::Module && g.api == "cuModuleLoadData") loaded_data.insert(g.bytes);
    CHECK(loaded_data == std::multiset<uint64_t>{4096, kGlobals});
  }
}

TEST_CASE("modules: a program that unloads its modules reports nothing") {
  CHECK(run_program("kinds_module_globals_clean", module_globals("clean")).report.leaks.empty());
}

TEST_CASE("runtime API: graphs, executable graphs, textures, surfaces and arrays made through libcudart are tracked") {
  // Leaked: the two graphs (one built, one captured), the executable graph,
  // the texture and the surface, and three arrays (2D, 3D, mipmapped).
  Run leaked = run_program("runtime_objects_leak", {program("runtime_objects"), "leak"});
  const Report& r = leaked.report;
  CHECK(count_of(r, "graph") == 2);
  CHECK(count_of(r, "graph_exec") == 1);
  CHECK(count_of(r, "texture") == 1);
  CHECK(count_of(r, "surface") == 1);
  CHECK(count_of(r, "array") == 3);
  CHECK(count_of(r, "graph_memory") == 0);  // its free node gave it back
  CHECK(count_of(r, "stream") == 0);
  CHECK(count_of(r, "device") == 0);
  for (const char* api :
       {"cudaGraphCreate", "cudaStreamEndCapture", "cudaGraphInstantiate", "cudaCreateTextureObject",
        "cudaCreateSurfaceObject", "cudaMallocArray", "cudaMalloc3DArray", "cudaMallocMipmappedArray"}) {
    bool found = false;
    // cudaGraphInstantiate may reach the driver through cudaGraphInstantiateWithFlags (a tail call).
    for (const LeakGroup& g : r.leaks) found |= g.api.starts_with(api);
    INFO(api);
    CHECK(found);
  }
  // Destroyed: nothing of these kinds is left.
  Run clean = run_program("runtime_objects_clean", {program("runtime_objects"), "clean"});
  CHECK(clean.result.out == "all destroyed\n");
  for (const char* kind : {"graph", "graph_exec", "texture", "surface", "array", "graph_memory", "stream", "device"}) {
    INFO(kind);
    CHECK(count_of(clean.report, kind) == 0);
  }
}

TEST_CASE("simulated GPU: a program calling functions it does not model loads, and each says so once") {
  // Linked against the real libcudart.so.13: before the simulated runtime
  // exported all of its functions this died at load with status 127.
  std::string dir = fresh_dir("unmodelled_calls");
  Result res = run_sim(dir, {program("unmodelled_calls")});
  INFO(res.err);
  CHECK(res.exit_code == 0);
  CHECK(res.out == "all sane\n");
  auto count = [&](const std::string& line) {
    size_t n = 0;
    for (size_t at = res.err.find(line); at != std::string::npos; at = res.err.find(line, at + 1)) ++n;
    return n;
  };
  // Called twice each; one line each.
  CHECK(count("cudaleak (simulated GPU): cudaDeviceFlushGPUDirectRDMAWrites is not simulated; it returned "
              "cudaErrorNotSupported\n") == 1);
  CHECK(count("cudaleak (simulated GPU): cuDeviceGetLuid is not simulated; it returned CUDA_ERROR_NOT_SUPPORTED\n") ==
        1);
  CHECK(count("is not simulated") == 2);  // the modelled ones print nothing
}
