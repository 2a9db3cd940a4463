#include "report/cli/top_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "report/cli/live_client.h"
#include "report/cli/top_view.h"
#include "report/render/top_text.h"

namespace cudaleak::cli {

namespace {
struct TopArgs {
  std::vector<int> pids;
  bool once = false;
  bool by_growth = false;
  int interval_ms = 1000;
  size_t sites = 15;
};

int run_top(const TopArgs& args) {
  render::TopTextOptions options;
  options.max_sites = args.sites;
  options.order = args.by_growth ? render::TopOrder::Growth : render::TopOrder::Bytes;
  if (!args.once) return run_top_view(args.pids, args.interval_ms, options);
  std::vector<int> pids = args.pids.empty() ? live_pids() : args.pids;
  if (pids.empty()) {
    std::fprintf(stderr, "cudaleak top: no process on this host serves a live view (run one under cudaleak run)\n");
    return 1;
  }
  std::vector<render::LiveProcess> processes;
  bool any = false;
  for (int pid : pids) {
    processes.push_back(fetch_frame(pid));
    any |= processes.back().problem.empty();
  }
  const std::string text = render::render_top(processes, gpu_usage(), options);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return any ? 0 : 1;
}
}  // namespace

void add_top_command(CLI::App& app, int& status) {
  auto args = std::make_shared<TopArgs>();
  CLI::App* top = app.add_subcommand(
      "top", "Watch processes running under cudaleak on this host: memory by site, live, with growth rates");
  top->add_option("pids", args->pids, "Processes to watch (default: every one serving a live view)");
  top->add_flag("--once", args->once, "Print one frame as plain text and exit");
  top->add_flag("--by-growth", args->by_growth, "Sort sites by growth rate (default: by live bytes)");
  top->add_option("--interval-ms", args->interval_ms, "Refresh period of the interactive view")
      ->check(CLI::Range(100, 60000));
  top->add_option("--sites", args->sites, "Sites shown per process");
  top->callback([args, &status] { status = run_top(*args); });
}

}  // namespace cudaleak::cli
