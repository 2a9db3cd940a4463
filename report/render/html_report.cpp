#include "report/render/html_report.h"

#include "html_assets.h"
#include "report/model/frame_owner.h"
#include "report/model/json_io.h"
#include "report/analyze/job_fold.h"
#include "report/render/job_text.h"

#include <set>

#include <nlohmann/json.hpp>

namespace cudaleak::render {

namespace {
void replace(std::string& text, const std::string& marker, const std::string& value) {
  auto at = text.find(marker);
  if (at != std::string::npos) text.replace(at, marker.size(), value);
}
// Whose code each frame of the report is (report/model/frame_owner.h), for
// the page to read rather than keep rules of its own: {"module\nfunction\nfile":
// owner} for every frame that is not the user's.
std::string frame_owners(const report::Report& r) {
  nlohmann::json owners = nlohmann::json::object();
  auto add = [&](const std::vector<report::Frame>& stack) {
    for (const report::Frame& f : stack)
      if (report::FrameOwner owner = report::owner_of(f); owner != report::FrameOwner::User)
        owners[std::string(f.module) + "\n" + std::string(f.function) + "\n" + std::string(f.file)] =
            report::owner_name(owner);
  };
  auto add_tensors = [&](const report::AllocatorDevice& d) {
    for (const report::TensorGroup& t : d.live_tensors) add(t.stack);
  };
  for (const auto& g : r.leaks) add(g.stack);
  for (const auto& n : r.notes) add(n.stack);
  for (const auto& v : r.reservations) add(v.stack);
  for (const auto& d : r.timeline.devices) {
    for (const auto& g : d.peak.groups) add(g.stack);
    for (const auto& site : d.sites) add(site.stack);
  }
  for (const auto& e : r.oom_events) {
    add(e.stack);
    for (const auto& site : e.top_sites) add(site.stack);
    for (const auto& v : e.reservations) add(v.stack);
    for (const auto& a : e.attempts) add(a.stack);
    add_tensors(e.pytorch);
  }
  for (const auto& d : r.pytorch.devices) add_tensors(d);
  // JAX's arrays by their stacks: the page names each by its user line.
  auto add_arrays = [&](const report::JaxDevice& d) {
    for (const report::JaxArrayGroup& g : d.groups) add(g.stack);
  };
  for (const auto& d : r.jax.devices) add_arrays(d);
  for (const auto& e : r.oom_events) add_arrays(e.jax.device);
  return owners.dump(-1, ' ', true);
}

// As the report's data: a '<' inside the <script> element is escaped.
std::string script_data(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return out;
}

std::string trimmed(const std::string& text) {
  const size_t from = text.find_first_not_of(' '), to = text.find_last_not_of('\n');
  return from == std::string::npos || to == std::string::npos || to < from ? "" : text.substr(from, to - from + 1);
}

// A job of many ranks as the text folds it (render/job_text.h): the page
// draws each story's first card and the rest when asked, the odd ranks first.
// The events of a story beyond its first carry its numbers, not its stacks:
// their call and causes are the first's (the page draws its stack once).
std::string job_view(report::Report& r) {
  nlohmann::json job = nlohmann::json::object();
  if (r.processes.size() <= 1) return job.dump();
  nlohmann::json stories = nlohmann::json::array();
  for (const StoryText& t : story_texts(r)) {
    for (size_t i : t.members) {
      report::OomEvent& e = r.oom_events[i];
      e.stack.clear(), e.top_sites.clear(), e.pytorch.live_tensors.clear(), e.pytorch.segment_list.clear();
      e.jax.device.groups.clear();
      for (report::OomAttempt& a : e.attempts) a.stack.clear();
    }
    stories.push_back({{"first", t.first},
                       {"members", t.members},
                       {"title", t.title},
                       {"across", trimmed(t.across)},
                       {"others", trimmed(t.others)}});
  }
  job["stories"] = std::move(stories);
  job["odd"] = odd_rank_lines(r);
  std::vector<int> odd_ranks;
  for (const report::OddRank& o : report::odd_ranks(r)) odd_ranks.insert(odd_ranks.end(), o.rank);
  job["odd_ranks"] = odd_ranks;
  return script_data(job.dump(-1, ' ', true));
}

// Each rank maps the same libraries at bases of its own: the page lists each
// library once (the modules table of a 1,024-rank job had 85,000 rows).
void modules_once(report::Report& r) {
  if (r.processes.size() <= 1) return;
  std::set<std::pair<std::string, std::string>> seen;
  std::erase_if(r.modules, [&](const report::Module& m) { return !seen.insert({m.path, m.build_id}).second; });
}

}  // namespace

std::string html_report(report::Report r) {
  // The page lists a sample of each group's allocations; totals cover all.
  // Keeps a report of a million live allocations a page a browser opens at once.
  for (auto& g : r.leaks)
    if (g.allocations.size() > kHtmlAllocationsPerGroup) g.allocations.resize(kHtmlAllocationsPerGroup);
  const std::string job = job_view(r);
  modules_once(r);
  std::string page = kHtmlTemplate;
  replace(page, "/*CUDALEAK_CSS*/", kHtmlCss);
  replace(page, "/*CUDALEAK_JS*/", kHtmlJs);
  const std::string marker = "/*CUDALEAK_DATA*/";
  const size_t at = page.find(marker);
  if (at == std::string::npos) return page;
  std::string tail = page.substr(at + marker.size());
  page.resize(at);
  // After the report's data, so that nothing in the owners is taken for its marker.
  replace(tail, "/*CUDALEAK_FRAME_OWNERS*/", script_data(frame_owners(r)));
  replace(tail, "/*CUDALEAK_JOB*/", job);
  // The data goes in as it is written, in one pass. Inside a <script>
  // element "</script" would end it early and "<!--<script" would swallow the
  // page's own script: every '<' (which JSON has only inside strings) becomes
  // the escape \u003c, which the JSON parser reads back as '<'.
  report::write_json(
      r,
      [&](std::string_view piece) {
        for (char c : piece) {
          if (c == '<') page += "\\u003c";
          else page += c;
        }
      },
      -1);
  page += tail;
  return page;
}

}  // namespace cudaleak::render
