// Out-of-memory errors: the request, the ranked diagnosis in the text
// report's words, PyTorch's view of its cache at that moment, what other
// processes held, and the failing stack's own frames.
function renderOoms() {
  const ooms = R.oom_events || [];
  const box = $("#oom");
  if (!ooms.length) { box.closest("section").hidden = true; return; }
  ooms.forEach((e, n) => {
    const entry = el("div", { class: "oom", id: "oom-" + n });
    entry.append(el("h3", {}, "Out of memory at " + fmtSince(e.time_ns, e.pid) + (merged && e.pid ? " in pid " + e.pid : "") + ": " + e.api +
        " asked for " + fmtBytes(e.request_bytes) + " on device " + e.device +
        (e.device_info ? " (" + fmtBytes(e.free_bytes) + " free of " + fmtBytes(e.total_bytes) + ")" : "") +
        (e.recovered ? ": the allocator's retry succeeded, the program saw no failure" : "")));
    const attempts = e.attempts || [];
    if (attempts.length)
      entry.append(el("div", { class: "meta attempts" }, "before it, " + plural(attempts.length, "failed call") + " (" +
          attempts.map((a) => a.api + " of " + fmtBytes(a.request_bytes) + " at " + fmtSince(a.time_ns, e.pid)).join(", ") +
          ") retried after the allocator freed its cache"));
    const causes = el("ol", { class: "causes" });
    for (const x of e.diagnosis || []) {
      const li = el("li", { "data-cause": x.cause });
      li.append(el("b", {}, x.cause.replace(/_/g, " ")), ": " + x.message);
      causes.append(li);
    }
    entry.append(causes);
    const others = (e.other_processes || []).map((p) => (p.name || "pid " + p.pid) + " " + (p.bytes_known === false ? "(unknown)" : fmtBytes(p.bytes)));
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
    const stack = el("div", { class: "stack" });
    programFrames(e.stack).slice(0, 8).forEach((f) => stack.append(el("div", {}, frameWhere(f) + (isPython(f) ? "  [Python]" : ""))));
    entry.append(stack);
    box.append(entry);
  });
  links.showOom.push((n) => {
    const entry = document.getElementById("oom-" + n);
    if (!entry) return;
    entry.scrollIntoView({ block: "center" });
    entry.classList.add("flash");
    setTimeout(() => entry.classList.remove("flash"), 1200);
  });
}
