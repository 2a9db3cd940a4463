// Out-of-memory errors: the request, the ranked diagnosis in the text
// report's words, PyTorch's view of its cache at that moment, what other
// processes held, and the failing stack's own frames.
// In a merged job, each other rank's memory on its devices when rank e.rank
// failed (its timeline's last point at or before then), as the text says it.
function ranksAt(e) {
  if (!merged || !(e.rank >= 0)) return [];
  const out = [];
  for (const p of (R.processes || []).filter((x) => x.rank >= 0 && !(x.rank === e.rank && x.pid === e.pid)).sort((a, b) => a.rank - b.rank)) {
    const lanes = ((R.timeline || {}).devices || []).filter((d) => d.pid === p.pid && (!(d.rank >= 0) || d.rank === p.rank));
    const failed = (R.oom_events || []).filter((x) => !x.recovered && x.pid === p.pid && x.rank === p.rank).map((x) => x.time_ns);
    const note = failed.length ? " (out of memory at " + fmtSince(Math.min(...failed), p.pid) + ")" : "";
    // A process whose last report is its end, written before the failure, held nothing then.
    const end = ["exit", "termination", "crash"].includes(p.reason) && p.duration_ns ? processStart(p.pid) + p.duration_ns : null;
    if (end !== null && end < e.time_ns) {
      out.push("rank " + p.rank + (lanes.length ? " on device " + lanes.map((d) => d.device).join(",") : "") + " had ended at " + fmtTime(end) + note);
      continue;
    }
    if (!lanes.length) { out.push("rank " + p.rank + ": no timeline" + note); continue; }
    for (const d of lanes) {
      // A point is [time_ns, max_total, bytes of each kind...] (docs/report-format.md#timeline).
      const before = (d.points || []).filter((pt) => pt[0] <= e.time_ns);
      const last = before[before.length - 1];
      const bytes = last ? last.slice(2).reduce((a, b) => a + b, 0) : null;
      out.push("rank " + p.rank + " on device " + d.device + (bytes === null ? " had not allocated yet" : " held " + fmtBytes(bytes)) + note);
    }
  }
  return out;
}

// A job of many ranks as the text folds it (render/job_text.h): each story
// of several ranks one card, its other ranks' cards drawn when asked.
const JOB = (() => {
  try { return JSON.parse(document.getElementById("cudaleak-job").textContent); } catch (x) { return {}; }
})();

function oomEntry(e, n, story) {
    const entry = el("div", { class: "oom", id: "oom-" + n });
    const where = e.rank >= 0 ? " on rank " + e.rank + (merged && e.pid ? " (pid " + e.pid + ")" : "") : merged && e.pid ? " in pid " + e.pid : "";
    entry.append(el("h3", {}, "Out of memory at " + fmtSince(e.time_ns, e.pid) + where + ": " + e.api +
        " asked for " + fmtBytes(e.request_bytes) + " on device " + e.device +
        (e.device_info ? " (" + fmtBytes(e.free_bytes) + " free of " + fmtBytes(e.total_bytes) + ")" : "") +
        (e.recovered ? ": the allocator's retry succeeded, the program saw no failure" : "")));
    const attempts = e.attempts || [];
    if (attempts.length)
      entry.append(el("div", { class: "meta attempts" }, "before it, " + plural(attempts.length, "failed call") + " (" +
          attempts.map((a) => a.api + " of " + fmtBytes(a.request_bytes) + " at " + fmtSince(a.time_ns, e.pid)).join(", ") +
          ") retried after the allocator released memory it held (its cache, or the frees it had deferred)"));
    const causes = el("ol", { class: "causes" });
    for (const x of e.diagnosis || []) {
      const li = el("li", { "data-cause": x.cause });
      li.append(el("b", {}, x.cause.replace(/_/g, " ")), ": " + x.message);
      causes.append(li);
    }
    entry.append(causes);
    const others = (e.other_processes || []).map((p) => (p.rank >= 0 ? "rank " + p.rank + " " : "") + (p.name || "pid " + p.pid) + " " +
                                                        (p.bytes_known === false ? "(unknown)" : fmtBytes(p.bytes)));
    entry.append(el("div", { class: "meta" }, "this process held " + fmtBytes(e.tracked_bytes) + " through tracked calls" +
        (e.untracked_bytes ? "; " + fmtBytes(e.untracked_bytes) + " in use was not allocated through them (contexts, modules, workspaces)" : "") +
        (others.length ? "; other processes: " + others.join(", ") : e.nvml && e.nvml !== "ok" ? "; other processes unknown: " + e.nvml : "")));
    if (e.pytorch) {
      const p = e.pytorch;
      const line = el("div", { class: "meta" }, "PyTorch's cache then: " + fmtBytes(p.reserved) + " reserved in " + plural(p.segments, "segment") + ", " +
          fmtBytes(p.allocated) + " allocated to tensors, " + fmtBytes(p.free) + " free inside segments (largest free block " +
          fmtBytes(p.largest_free_block) + ") ");
      const link = el("a", { href: "#segments" }, "segment map");
      link.addEventListener("click", () => emit("showSegments", n));
      line.append(link);
      entry.append(line);
    }
    if (e.jax && e.jax.device) {
      const d = e.jax.device;
      const line = el("div", { class: "meta" }, "JAX then: " + (d.bytes_limit ? "XLA's pool " + fmtBytes(d.bytes_in_use || 0) + " in use of its " +
          fmtBytes(d.bytes_limit) + " limit; " : "") + "live arrays " + fmtBytes(d.arrays_bytes || 0) + " in " + (d.arrays || 0) + " ");
      const link = el("a", { href: "#jax-section" }, "arrays by line");
      link.addEventListener("click", () => emit("showJax", n));
      line.append(link);
      entry.append(line);
    }
    // A story's card says how the other ranks stood as the text does; a card
    // drawn on demand leaves it to its story's.
    const moment = story ? [] : story === null ? [] : ranksAt(e);
    if (story) for (const line of [story.across, ...story.others.split("\n")])
      entry.append(el("div", { class: "meta ranks-at" }, line));
    if (moment.length)
      entry.append(el("div", { class: "meta ranks-at" }, "the other ranks at that moment: " + moment.join("; ")));
    const stack = el("div", { class: "stack" });
    programFrames(e.stack).slice(0, 8).forEach((f) => stack.append(el("div", {}, frameWhere(f) + (isPython(f) ? "  [Python]" : ""))));
    entry.append(stack);
    return entry;
}

function renderOoms() {
  const ooms = R.oom_events || [];
  const box = $("#oom");
  if (!ooms.length) { box.closest("section").hidden = true; return; }
  const stories = JOB.stories || [];
  const storyOf = new Map(stories.map((s) => [s.first, s]));
  const inStory = new Set(stories.flatMap((s) => s.members));
  ooms.forEach((e, n) => {
    if (inStory.has(n)) return;
    const story = storyOf.get(n);
    if (!story) { box.append(oomEntry(e, n)); return; }
    const card = el("div", { class: "oom-story" });
    card.append(el("h3", {}, story.title), oomEntry(e, n, story));
    if (story.members.length) {
      const more = el("details", { class: "oom-members" });
      more.append(el("summary", {}, "each of the other " + (story.members.length === 1 ? "rank's out-of-memory" : story.members.length + " ranks' out-of-memory events")));
      more.addEventListener("toggle", () => {
        if (!more.open || more.dataset.drawn) return;
        more.dataset.drawn = "1";
        for (const m of story.members) more.append(oomEntry(ooms[m], m, null));
      });
      card.append(more);
    }
    box.append(card);
  });
  links.showOom.push((n) => {
    const entry = document.getElementById("oom-" + n);
    if (!entry) return;
    entry.scrollIntoView({ block: "center" });
    entry.classList.add("flash");
    setTimeout(() => entry.classList.remove("flash"), 1200);
  });
}
