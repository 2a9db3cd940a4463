// cudaleak: the command-line tool. `cudaleak run` launches a program under
// the preload library; `cudaleak options` lists every option.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "common/options.h"
#include "report/render/ci_formats.h"
#include "common/safe_output.h"
#include "report/cli/parse_errors.h"
#include "report/cli/paths.h"
#include "report/cli/baseline_command.h"
#include "report/cli/format_choices.h"
#include "report/cli/report_commands.h"
#include "report/cli/run_command.h"
#include "report/cli/top_command.h"
#include "report/gate/growth_gate.h"

using namespace cudaleak;

namespace {

std::string flag_name(const std::string& key) {
  std::string flag = "--";
  for (char c : key) flag += c == '_' ? '-' : c;
  return flag;
}

int print_option_table() {
  std::printf(
      "Options (cudaleak run --FLAG VALUE, or CUDALEAK_OPTIONS=key=value:key=value;\n"
      "a bool flag alone means true: --verbose, --verbose=false):\n\n");
  // Columns as wide as their longest entry, so that no long name shifts a row.
  int key_width = 0, flag_width = 0, type_width = 0;
  for (const OptionInfo& o : option_table()) {
    key_width = std::max(key_width, int(std::strlen(o.key)));
    flag_width = std::max(flag_width, int(flag_name(o.key).size()));
    type_width = std::max(type_width, int(std::strlen(o.type)));
  }
  for (const OptionInfo& o : option_table())
    std::printf("  %-*s  %-*s  %-*s  default %s\n      %s\n", key_width, o.key, flag_width, flag_name(o.key).c_str(),
                type_width, o.type, *o.default_value ? o.default_value : "(none)", o.help);
  return 0;
}

// Options whose value is a path: made absolute against the launcher's working
// directory, since each process of the run (a ctest test, a child that
// changes directory) resolves a relative path against its own.
bool is_path_option(const std::string& key, const std::string& value) {
  if (key == "log_path") return value != "stdout" && value != "stderr";  // the streams, not files
  return key == "output" || key == "suppressions" || key == "baseline" || key == "device_heap_sanitizer" ||
         key == "device_heap_patches";
}

std::string absolute_path(const std::string& path) {
  if (path.empty() || path == "-" || path.front() == '/') return path;
  return (std::filesystem::current_path() / path).lexically_normal().string();
}

// The report's directory is created when missing, as `-o reports/x.json` asks.
std::string make_report_directory(const std::string& pattern) {
  std::filesystem::path dir = std::filesystem::path(pattern).parent_path();
  std::error_code ec;
  if (dir.empty() || dir.string().find('%') != std::string::npos || std::filesystem::is_directory(dir, ec)) return "";
  if (std::filesystem::exists(dir, ec))
    return "cannot create the report directory " + dir.string() + ": not a directory";
  std::filesystem::create_directories(dir, ec);
  return ec ? "cannot create the report directory " + dir.string() + ": " + ec.message() : "";
}

// Refused before the program runs, not when it has: a report path that names
// a directory, or whose directory holds %p or %n (never made, so the write
// at exit would fail). Else its directory is made; "" when all is well.
std::string report_path_problem(const std::string& pattern) {
  const std::filesystem::path path(pattern);
  std::error_code ec;
  if (std::filesystem::path(pattern).filename() == "-")  // not standard output, as `report -o -` means
    return "cannot write the report to " + pattern +
           ": reports are files (the program's standard output is its own); name one, or /dev/stderr";
  if (pattern.ends_with('/') || (pattern.find('%') == std::string::npos && std::filesystem::is_directory(path, ec)))
    return "cannot write the report to " + pattern + ": a directory; name a file in it, such as " +
           (path / "cudaleak.%p.json").lexically_normal().string();
  if (path.parent_path().string().find('%') != std::string::npos)
    return "cannot write the report to " + pattern + ": %p, %n and %h belong in the file's name, not in its directory";
  return make_report_directory(pattern);
}

// Flags of `run` given an explicit empty value (`--crash-report ''` or
// `--crash-report=`): CLI11 hands these over as it hands over a bare
// `--crash-report`, which means true, so they are told apart here, on the
// arguments before the program's `--`.
std::vector<std::string> flags_given_empty(int argc, char** argv) {
  std::vector<std::string> given;
  int i = 1;
  while (i < argc && std::strcmp(argv[i], "run") != 0) ++i;
  for (++i; i < argc && std::strcmp(argv[i], "--") != 0; ++i) {
    std::string arg = argv[i];
    if (!arg.starts_with("--")) continue;
    if (arg.ends_with("=") && arg.find('=') == arg.size() - 1) given.push_back(arg.substr(0, arg.size() - 1));
    else if (arg.find('=') == std::string::npos && i + 1 < argc && argv[i + 1][0] == '\0') given.push_back(arg);
  }
  return given;
}

// A listing written to a full disk or a closed pipe is not written: the
// command fails as a write to a named file does, not with status 0.
int with_stdout_flushed(int status) {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  spdlog::error("cudaleak: cannot write to standard output: {}", std::strerror(errno ? errno : EIO));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_logger_st("cudaleak"));  // stdout belongs to the program
  spdlog::set_pattern("%v");
  CLI::App app{"cudaleak: find CUDA resources a program never released", "cudaleak"};
  app.require_subcommand(1);
  // Wide enough for the longest option and its type (--gate-error-exitcode INT),
  // so every description starts in one column; shared by every command's help.
  app.get_formatter()->column_width(40);
  app.set_version_flag("--version", std::string("cudaleak ") + CUDALEAK_VERSION);

  CLI::App* run = app.add_subcommand("run", "Run PROGRAM under cudaleak: cudaleak run [options] -- PROGRAM [ARGS...]");
  cli::RunSettings settings;
  run->add_flag("--simulated-gpu", settings.simulated_gpu,
                "Run against the simulated CUDA driver and runtime (no GPU needed)");
  CLI::Option* simulated_memory =
      run->add_option("--simulated-gpu-memory", settings.simulated_memory,
                      "Device memory of the simulated GPU, e.g. 512MiB (allocations past it fail)");
  // One flag per preload option, from the shared table: -o/--output, --stack-depth, ...
  // List options (suppressions, fail_on) may be given several times; others take the last value.
  std::vector<std::pair<const OptionInfo*, std::vector<std::string>>> values;
  values.reserve(option_table().size());
  for (const OptionInfo& o : option_table()) {
    values.emplace_back(&o, std::vector<std::string>{});
    std::string names = flag_name(o.key);
    if (std::string(o.key) == "output") names = "-o," + names;
    bool list = std::string(o.type) == "list";
    CLI::Option* opt = run->add_option(names, values.back().second, o.help)
                           ->type_name(o.type)
                           ->multi_option_policy(list ? CLI::MultiOptionPolicy::TakeAll
                                                      : CLI::MultiOptionPolicy::TakeLast);
    if (std::string(o.type) == "bool") opt->expected(0, 1);  // --verbose alone is --verbose true
  }
  bool no_default_suppressions = false;
  run->add_flag("--no-default-suppressions", no_default_suppressions,
                "Same as --default-suppressions false (LeakSanitizer-style spelling)");
  cli::add_run_file_options(*run, settings.ci_files);
  cli::add_format_option(*run, cli::Command::Run, cli::ChosenBy::Annotations, settings.annotations,
                         "Also write the run's leaks as ");
  run->add_option("--annotations-output", settings.annotations_path, "Write the annotations to FILE instead");
  run->add_option("--source-root", settings.source_root,
                  "SARIF and annotation locations are relative to DIR (default: the git work tree of the current "
                  "directory)");
  std::vector<std::string> raw_options;
  run->add_option("--option", raw_options, "Any option as key=value (repeatable)");
  run->add_option("command", settings.command, "PROGRAM [ARGS...]")->required();
  run->positionals_at_end();

  CLI::App* options = app.add_subcommand("options", "List every option with its default");

  CLI::App* baseline = app.add_subcommand(
      "baseline", "Write a baseline of the leak sites in REPORT...: cudaleak baseline REPORT... -o FILE");
  std::vector<std::string> baseline_reports;
  std::string baseline_out;
  baseline->add_option("reports", baseline_reports, "Reports to take the leak sites from")->required();
  baseline->add_option("-o,--output", baseline_out, "Baseline file to write")->required();

  int status = 0;
  cli::add_report_commands(app, status);
  cli::add_top_command(app, status);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli::report_parse_error(app, e, argc, argv);
  }
  for (const char* name : {"report", "diff", "merge", "symbolize", "top"})
    if (app.got_subcommand(name)) return with_stdout_flushed(status);
  if (options->parsed()) return with_stdout_flushed(print_option_table());

  if (run->parsed()) {
    // What the processes will read: CUDALEAK_OPTIONS from the environment,
    // then the flags (run_program passes them on in that order).
    Options check;
    std::vector<std::string> problems;
    if (const char* inherited = std::getenv("CUDALEAK_OPTIONS"))
      for (const OptionProblem& p : parse_options(inherited, check))
        problems.push_back("CUDALEAK_OPTIONS: " + p.message);
    // A refused value is named as the user wrote it: --fail-on for a flag,
    // fail_on for --option fail_on=... .
    auto add = [&](const std::string& key, std::string value, bool flag = false) {
      if (is_path_option(key, value)) value = absolute_path(value);
      std::string problem = set_option(check, key, value);
      if (flag && problem.starts_with(key + ": ")) problem = flag_name(key) + problem.substr(key.size());
      if (!problem.empty()) problems.push_back(problem);
      settings.options.emplace_back(key, value);
    };
    const std::vector<std::string> empty_given = flags_given_empty(argc, argv);
    for (const auto& [info, given] : values) {
      // A bare boolean flag is true; one given an empty value is refused as
      // --option key= is.
      const bool said_empty = std::ranges::find(empty_given, flag_name(info->key)) != empty_given.end();
      for (const std::string& value : given)
        add(info->key, value.empty() && std::string(info->type) == "bool" && !said_empty ? "true" : value, true);
    }
    if (no_default_suppressions) add("default_suppressions", "false", true);
    for (const std::string& kv : raw_options) {
      auto eq = kv.find('=');
      if (eq == std::string::npos) problems.push_back("--option expects key=value, got '" + kv + "'");
      else add(kv.substr(0, eq), kv.substr(eq + 1));
    }
    if (gate::GrowthThreshold threshold; !check.fail_on_growth.empty())
      if (std::string problem = gate::parse_growth_threshold(check.fail_on_growth, threshold); !problem.empty())
        problems.push_back(flag_name("fail_on_growth") + ": " + problem);
    if (uint64_t bytes; simulated_memory->count())
      if (std::string problem = cli::parse_memory_size(settings.simulated_memory, bytes); !problem.empty())
        problems.push_back(problem);
    // The report path every process reads, absolute whoever set it (the
    // default, CUDALEAK_OPTIONS, a flag): a process that changes directory
    // still writes where the launcher looks and the summary says.
    if (!check.output.empty() && check.output.front() != '/') add("output", check.output);
    if (problems.empty()) {
      if (std::string problem = report_path_problem(check.output); !problem.empty()) problems.push_back(problem);
      for (auto& [format, path] : settings.ci_files)
        if (!path.empty()) {
          path = absolute_path(path);
          if (std::string problem = make_report_directory(path); !problem.empty()) problems.push_back(problem);
          if (const char* problem = safe_output::refusal(path.c_str())) problems.push_back(path + ": " + problem);
        }
    }
    for (const std::string& p : problems) spdlog::error("cudaleak: {}", p);
    if (!problems.empty()) return 2;
    settings.source_root = settings.source_root.empty()
                               ? render::find_source_root(".")
                               : std::filesystem::path(absolute_path(settings.source_root)).lexically_normal().string();
    while (settings.source_root.size() > 1 && settings.source_root.back() == '/') settings.source_root.pop_back();
    settings.error_exitcode = check.error_exitcode;
    settings.gate_error_exitcode = check.gate_error_exitcode;
    settings.library_path = cli::preload_library_path();
    settings.simcuda_dir = cli::simcuda_directory();
    if (check.pytorch_view) settings.python_dir = cli::python_directory();
    settings.pytorch_stacks = check.pytorch_stacks;
    settings.pytorch_stacks_at = check.pytorch_stacks_at;
    if (access(settings.library_path.c_str(), R_OK) != 0) {
      spdlog::error("cudaleak: preload library not found at {} (set CUDALEAK_LIBRARY)", settings.library_path);
      return 2;
    }
    return cli::run_program(settings);
  }
  if (baseline->parsed()) return cli::write_baseline(baseline_reports, baseline_out);
  return 0;
}
