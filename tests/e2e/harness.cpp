#include "tests/e2e/harness.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace e2e {

namespace fs = std::filesystem;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

std::string build_dir() { return CUDALEAK_BUILD_DIR; }
std::string cudaleak_tool() { return build_dir() + "/bin/cudaleak"; }
std::string sample(const std::string& name) { return build_dir() + "/samples/sample_" + name + "_shared"; }
std::string program(const std::string& name) { return build_dir() + "/tests/e2e/" + name; }

std::string fresh_dir(const std::string& name) {
  fs::path dir = fs::path(build_dir()) / "e2e-reports" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

Result run(const std::vector<std::string>& argv, const std::vector<std::string>& env) {
  std::string out_path = fs::temp_directory_path() / ("cudaleak-e2e-out-" + std::to_string(getpid()));
  std::string err_path = out_path + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    if (entry.rfind("CUDALEAK_", 0) == 0 || entry.rfind("LD_PRELOAD=", 0) == 0) continue;  // tests start clean
    envs.push_back(entry);
  }
  for (const auto& e : env) envs.push_back(e);
  std::vector<char*> cargv, cenv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  for (const auto& e : envs) cenv.push_back(const_cast<char*>(e.c_str()));
  cenv.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("cannot spawn " + argv[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  Result r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return r;
}

cudaleak::report::Report load(const std::string& path) { return cudaleak::report::from_json(slurp(path)); }

Result run_sim(const std::string& dir, const std::vector<std::string>& command,
               const std::vector<std::string>& extra_flags, const std::vector<std::string>& env) {
  std::vector<std::string> argv = {cudaleak_tool(), "run", "--simulated-gpu", "-o", dir + "/report.%p.%n.json"};
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  return run(argv, env);
}

Result run_preloaded(const std::vector<std::string>& command, const std::string& options) {
  return run(command, {"LD_PRELOAD=" + build_dir() + "/lib/libcudaleak.so",
                       "LD_LIBRARY_PATH=" + build_dir() + "/lib/cudaleak/simcuda", "CUDALEAK_OPTIONS=" + options});
}

bool stack_has(const cudaleak::report::LeakGroup& g, const std::string& function) {
  for (const auto& f : g.stack)
    if (f.function.find(function) != std::string::npos) return true;
  return false;
}

const cudaleak::report::LeakGroup* find_group(const cudaleak::report::Report& r, const std::string& kind,
                                              const std::string& function_in_stack) {
  for (const auto& g : r.leaks)
    if (cudaleak::report::text_of(g.kind) == kind && (function_in_stack.empty() || stack_has(g, function_in_stack)))
      return &g;
  return nullptr;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

ReportedRun run_with_report(const std::string& name, const std::vector<std::string>& command) {
  std::string dir = fresh_dir(name);
  Result res = run_sim(dir, command);
  INFO(res.err);
  REQUIRE(res.exit_code == 0);
  auto files = files_in(dir);
  REQUIRE(files.size() == 1);
  return ReportedRun{res, load(files[0])};
}

}  // namespace e2e
