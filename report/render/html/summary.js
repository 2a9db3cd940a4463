// The headline: what ran, the verdict in one sentence, totals by kind and device.
function renderSummary() {
  document.title = "cudaleak: " + (merged ? R.processes.length + " processes" : (R.process.exe || "").split("/").pop());
  $("#title").textContent = merged ? "cudaleak report: " + R.processes.length + " processes"
                                   : "cudaleak report: " + (R.process.argv || [R.process.exe]).join(" ");
  const gate = R.gate && R.gate.evaluated ? " \u00b7 CI gate: " + (R.gate.error ? "not evaluated (" + R.gate.error + ")"
      : R.gate.failed ? "failed (" + plural(R.gate.failing_groups, "group") +
      (R.gate.failing_bytes ? ", " + fmtBytes(R.gate.failing_bytes) : "") + ")" : "passed") : "";
  $("#meta").textContent = "reason: " + R.reason + (R.checkpoint ? " (" + R.checkpoint + ")" : "") +
      " \u00b7 written " + new Date(R.timestamp * 1000).toISOString() + " \u00b7 ran " + fmtTime(R.duration_ns || 0) +
      " \u00b7 cudaleak " + R.tool_version +
      (merged ? "" : " \u00b7 pid " + R.process.pid + (R.process.rank >= 0 ? " rank " + R.process.rank +
                     (R.process.world_size ? " of " + R.process.world_size : "") : "") +
                     (R.process.host ? " on " + R.process.host : "")) + gate;
  // A job: its ranks, launcher and hosts, and the ranks that wrote no report.
  if (job.ranks.length && merged)
    $("#meta").textContent += " \u00b7 job: " + (job.ranks.length === 1 ? "rank " : "ranks ") + rankRanges(job.ranks) +
        (job.world ? " of " + job.world : "") + (job.launchers.length ? " (" + job.launchers.join(", ") + ")" : "") +
        (job.hosts.length === 1 ? " on host " + job.hosts[0] : job.hosts.length > 1 ? " on " + job.hosts.length + " hosts" : "") +
        (job.missing.length ? "; no report from " + (job.missing.length === 1 ? "rank " : "ranks ") + rankRanges(job.missing) : "");
  const s = R.summary;
  const handles = counted.filter((g) => !memoryKinds.includes(g.kind)).reduce((a, g) => a + g.count, 0);
  const verdict = $("#verdict");
  if (!counted.length) {
    verdict.className = "clean";
    verdict.textContent = "No CUDA resources leaked" + (s.suppressed_count ? " (" + s.suppressed_count + " suppressed)" : "") +
        (s.cached_count ? "; " + fmtBytes(s.cached_bytes) + " was held by caching allocators, which is not a leak." : ".");
  } else {
    const top = counted[0];
    verdict.textContent = plural(counted.length, "leak group") + " hold " + fmtBytes(s.leaked_bytes) +
        (handles ? " and " + plural(handles, "handle") + " (streams, events, contexts...) were never released" : "") +
        "; the biggest: " + (top.bytes ? fmtBytes(top.bytes) + " of " : top.count + " ") + top.kind + " from " + top.api +
        " in " + where(top) + "." + (s.cached_count ? " Caching allocators held " + fmtBytes(s.cached_bytes) + " more (not counted)." : "");
  }
  // A job's odd ranks, said first as the text says them (render/job_text.h).
  if ((JOB.odd || []).length) {
    const odd = el("ul", { class: "odd-ranks" });
    for (const line of JOB.odd) odd.append(el("li", {}, line));
    verdict.after(el("div", { class: "meta" }, JOB.odd.length === 1 ? "A rank unlike the others:" : "Ranks unlike the others:"), odd);
  }
  const totals = $("#totals");
  const card = (v, k, title) => {
    const c = el("div", { class: "card", title: title || "" });
    c.append(el("div", { class: "v" }, v), el("div", { class: "k" }, k));
    totals.append(c);
  };
  card(fmtBytes(s.leaked_bytes), "leaked memory", "memory the program allocated and never freed");
  card(String(s.leaked_count), s.leaked_count === 1 ? "resource never released" : "resources never released");
  for (const [kind, t] of Object.entries(s.by_kind || {}))
    card(t.bytes ? fmtBytes(t.bytes) : String(t.count), kind + (t.bytes ? " (" + t.count + ")" : ""));
  const byDevice = {};
  for (const g of counted) if (memoryKinds.includes(g.kind)) byDevice[g.device] = (byDevice[g.device] || 0) + g.bytes;
  for (const [d, b] of Object.entries(byDevice)) card(fmtBytes(b), deviceName(d));
  if (s.reachable_count) card(fmtBytes(s.reachable_bytes || 0), "still reachable (" + s.reachable_count + ")",
                              "alive and referenced from the program's globals, stacks or heap at the report: not counted as leaked");
  if (s.suppressed_count) card(String(s.suppressed_count), "suppressed");
  if (s.cached_count) card(fmtBytes(s.cached_bytes), "cached by allocators (" + s.cached_count + ")",
                           "reserved by a caching allocator (PyTorch, CuPy...) for reuse: not a leak");
  const failures = (R.oom_events || []).filter((e) => !e.recovered).length;  // one per failure the program saw
  if (failures) card(String(failures), failures === 1 ? "out-of-memory error" : "out-of-memory errors");
}
