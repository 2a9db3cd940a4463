#include "report/capture/assemble.h"
#include "report/model/builder.h"

#include "report/gate/site.h"
#include "report/model/site_growth.h"
#include "report/oom/diagnose.h"
#include "report/oom/tensor_owners.h"
#include "report/symbols/symbolizer.h"

namespace cudaleak::report {

namespace {

// A site's API and place, named from its stack (`fallback`: the API when no
// frame names one).
template <class Site>
void name_from_stack(Site& site, const std::string& fallback) {
  site.api = outermost_api(site.stack, fallback);
  site.where = oom::where_of(site.stack, site.api);
}

// A (kind, stack) of the timeline, resolved and named as the report's groups are.
template <class Group>
void describe_site(Group& g, const RawSite& site, const Capture& c) {
  g.kind = site.kind;
  g.stack = resolve_stack(c.stacks(site.stack_id), c.resolver.get());
  name_from_stack(g, "");
}

// Memory over time, its marks, what was live at each peak and the sites the
// points name.
void add_timeline(Report& r, Capture& c) {
  r.timeline = std::move(c.timeline);
  for (size_t i = 0; i < r.timeline.devices.size(); ++i) {
    DeviceTimeline& d = r.timeline.devices[i];
    auto peak = c.peak_groups.find(d.device);
    if (peak != c.peak_groups.end())
      for (const RawPeakGroup& g : peak->second) {
        PeakGroup& p = d.peak.groups.emplace_back();
        describe_site(p, RawSite{g.kind, g.stack_id}, c);
        p.bytes = g.bytes;
        p.count = g.count;
      }
    for (size_t n = 0; n < d.sites.size() && i < c.timeline_sites.size() && n < c.timeline_sites[i].size(); ++n)
      describe_site(d.sites[n], c.timeline_sites[i][n], c);
    for (SiteGrowth& g : d.growth) {
      describe_site(g, RawSite{g.kind, g.stack_id}, c);
      // A program that calls the driver itself has no frame naming the API:
      // its live group, of the same stack, knows the entry point.
      for (const LeakGroup& live : r.leaks)
        if (g.api.empty() && live.stack_id == g.stack_id && live.kind == g.kind) g.api = live.api;
      g.steady = grew_steadily(g);
    }
  }
}

// PyTorch's live tensors without their own stacks, named by the allocations
// that hold them (tensor_owners.h).
void attribute_tensors(PyTorchView& view, const Capture& c) {
  for (AllocatorDevice& d : view.devices)
    attribute_by_segment(d, blocks_by_owner(d, memory_ranges(c.snapshot, d.device)),
                         [&](uint32_t id) { return resolve_stack(c.stacks(id), c.resolver.get()); });
}

}  // namespace

std::vector<PeakGroup> describe_sites(const std::vector<RawPeakGroup>& sites, const StackLookup& stacks,
                                      FrameResolver* resolver) {
  std::vector<PeakGroup> out;
  for (const RawPeakGroup& site : sites) {
    PeakGroup& g = out.emplace_back();
    g.kind = site.kind;
    g.stack = resolve_stack(stacks(site.stack_id), resolver);
    name_from_stack(g, "");
    g.bytes = site.bytes;
    g.count = site.count;
  }
  return out;
}

Assembled assemble(Capture c, const AssembleSettings& settings) {
  BuildOptions build;
  build.max_allocations = settings.max_allocations;
  Assembled out;
  Report& r = out.report;
  r = build_report(c.snapshot, c.stacks, c.resolver.get(), build);
  r.symbolized = c.symbolized;
  r.tool_version = std::move(c.tool_version);
  r.reason = c.reason;
  r.checkpoint = std::move(c.checkpoint);
  r.timestamp = c.timestamp;
  r.process = std::move(c.process);
  r.duration_ns = c.duration_ns;
  add_timeline(r, c);
  r.oom_events = std::move(c.oom_events);
  // Each event names its rank, so that the out-of-memory line of a job's
  // failing rank says which rank it is, alone or merged.
  for (OomEvent& e : r.oom_events)
    if (e.rank < 0) e.rank = r.process.rank;
  if (c.pytorch) {
    r.has_pytorch = true;
    r.pytorch = std::move(*c.pytorch);
    attribute_tensors(r.pytorch, c);
  }
  if (c.jax) {
    r.has_jax = true;
    r.jax = std::move(*c.jax);
  }
  if (c.cupy) {
    r.has_cupy = true;
    r.cupy = std::move(*c.cupy);
  }
  if (c.python) r.python = std::move(*c.python);
  r.modules = std::move(c.modules);  // last: nothing below resolves frames
  if (settings.history) settings.history(r);
  if (settings.gate) {
    out.verdict = gate::judge(r, *settings.gate);
    if (out.verdict.error.empty()) out.verdict.error = c.gate_error;
    r.gate = gate::as_reported(out.verdict, settings.gate->asked);
  }
  return out;
}

void symbolize_offline(Report& r, FrameResolver& resolver) {
  symbols::symbolize_report(r, resolver);
  for (LeakGroup& g : r.leaks) {
    g.api = outermost_api(g.stack, g.api);
    if (!g.site.empty()) g.site = gate::site_of(g, r.modules);
  }
  for (Note& n : r.notes) n.api = outermost_api(n.stack, n.api);
  for (DeviceTimeline& d : r.timeline.devices) {
    for (PeakGroup& g : d.peak.groups) name_from_stack(g, g.api);
    for (TimelineSite& site : d.sites) name_from_stack(site, site.api);
    for (SiteGrowth& site : d.growth) name_from_stack(site, site.api);
  }
  for (OomEvent& e : r.oom_events) {
    if (!e.has_pytorch && !e.has_jax) e.api = outermost_api(e.stack, e.api);  // else the framework's name stays
    for (OomSite& site : e.top_sites) name_from_stack(site, site.api);
    for (OomAttempt& a : e.attempts) a.api = outermost_api(a.stack, a.api);
  }
}

}  // namespace cudaleak::report
