// JAX's view of its devices (docs/python.md#jax): XLA's pool as a bar (what
// the live arrays hold, the rest in use, free up to its limit) and the live
// arrays by the user's line, at exit or a snapshot and at each out-of-memory
// XLA raised. A job's many devices read at one moment fold as the text folds
// them: each line once with its bytes across the ranks, one rank's device
// drawn when asked.
const jaxColors = { arrays: "#4e79a7", other: "#f28e2b", free: "#c3ccd9" };

// As report/oom/diagnose_jax.cpp's jax_lines: a device's groups of one user
// line folded, biggest first; groups without a line stay one per shape.
const jaxLines = (d) => {
  const byLine = new Map();
  for (const g of d.groups || []) {
    const f = programFrames(g.stack)[0];
    const key = f ? frameWhere(f) : "shape " + (g.shape || "");
    let l = byLine.get(key);
    if (!l) byLine.set(key, l = { key, where: f ? frameWhere(f) : "(no line: JAX gave no stack for them)", bytes: 0, count: 0,
                                  largest: 0, shape: "", stack: g.stack || [], top: 0 });
    l.bytes += g.bytes || 0;
    l.count += g.count || 0;
    if ((g.bytes || 0) > l.top) { l.top = g.bytes || 0; l.stack = g.stack || []; }
    if ((g.largest_bytes || 0) > l.largest || (!l.shape && g.shape)) { l.largest = g.largest_bytes || 0; l.shape = g.shape || ""; }
  }
  return [...byLine.values()].sort((a, b) => b.bytes - a.bytes);
};

// "176.0 MiB", or "median 176.0 MiB (176.0 MiB-1.4 GiB)" where they differ, as the text says it.
const bytesSpread = (values) => {
  const v = [...values].sort((a, b) => a - b);
  const [lo, hi, mid] = [v[0], v[v.length - 1], v[Math.floor(v.length / 2)]];
  return fmtBytes(lo) === fmtBytes(hi) ? fmtBytes(lo) : "median " + fmtBytes(mid) + " (" + fmtBytes(lo) + "-" + fmtBytes(hi) + ")";
};
const countSpread = (values) => {
  const lo = Math.min(...values), hi = Math.max(...values);
  return lo === hi ? String(lo) : lo + "-" + hi;
};

function renderJax() {
  const section = $("#jax-section");
  const ooms = R.oom_events || [];
  // A story's later events are told by its first (render/job_text.h).
  const inStory = new Set((JOB.stories || []).flatMap((s) => s.members));
  const views = [];
  const atOom = ooms.some((e) => e.jax);
  if (R.jax && (R.jax.devices || []).length && !(R.jax.when === "oom" && atOom))
    views.push({ label: "at " + (R.jax.when || "exit"), devices: R.jax.devices });
  ooms.forEach((e, n) => {
    if (e.jax && e.jax.device && !inStory.has(n))
      views.push({ label: "at out-of-memory #" + (n + 1) + " (" + fmtSince(e.time_ns, e.pid) + (e.rank >= 0 ? ", rank " + e.rank : "") + ")",
                   devices: [Object.assign({ pid: e.pid, rank: e.rank }, e.jax.device)], oom: n });
  });
  if (!views.length) { section.hidden = true; return; }
  const select = $("#jax-view");
  views.forEach((v, i) => select.append(el("option", { value: i }, v.label)));
  const holder = $("#jax");

  const poolBar = (d) => {
    const whole = Math.max(d.bytes_limit || 0, d.bytes_in_use || 0, d.arrays_bytes || 0) || 1;
    const arrays = Math.min(d.arrays_bytes || 0, whole), other = Math.max(0, (d.bytes_in_use || 0) - arrays);
    const free = d.bytes_limit ? Math.max(0, d.bytes_limit - arrays - other) : 0;
    const bar = el("div", { class: "jax-pool" });
    for (const [key, bytes, what] of [["arrays", arrays, "live arrays"], ["other", other, "in use, not by live arrays"], ["free", free, "free in XLA's pool"]]) {
      if (!bytes) continue;
      const part = el("span", { "data-part": key, title: what + ": " + fmtBytes(bytes) });
      part.style.width = (100 * bytes / whole).toFixed(2) + "%";
      part.style.background = jaxColors[key];
      bar.append(part);
    }
    return bar;
  };
  const linesTable = (rows) => dataTable(["bytes", "arrays", "largest", "made at"], rows.slice(0, 50).map((l) =>
    [{ text: fmtBytes(l.bytes), num: true }, l.count, l.shape ? l.shape + (l.largest ? " (" + fmtBytes(l.largest) + ")" : "") : "",
     { text: l.where, title: l.stack.map(frameWhere).join("\n") }]), { class: "jax-lines" });

  function drawDevice(d) {
    const box = el("div", { class: "segment-device jax-device", "data-device": d.device });
    box.append(el("h3", { class: "lane-title" }, "device " + d.device + (d.rank >= 0 ? " \u00b7 rank " + d.rank : "") +
                  (d.pid ? " \u00b7 pid " + d.pid : "") + " \u2014 " +
                  (d.bytes_limit ? "XLA's pool " + fmtBytes(d.bytes_in_use || 0) + " in use of its " + fmtBytes(d.bytes_limit) + " limit" +
                   (d.peak_bytes_in_use ? " (peak " + fmtBytes(d.peak_bytes_in_use) + ")" : "") +
                   (d.largest_free_block ? ", largest free block " + fmtBytes(d.largest_free_block) : "") + "; " : "") +
                  "live arrays " + fmtBytes(d.arrays_bytes || 0) + " in " + (d.arrays || 0) +
                  (d.no_memory_arrays ? " (and " + d.no_memory_arrays + " that hold no memory)" : "")));
    box.append(poolBar(d));
    box.append(legendEl([["arrays", "live arrays"], ["other", "in use, not by live arrays"], ["free", "free in XLA's pool"]]
                        .map(([key, text]) => ({ color: jaxColors[key], text }))));
    const lines = jaxLines(d);
    if (lines.length) box.append(el("h4", {}, "Live arrays by line"), linesTable(lines));
    return box;
  }

  // Many devices of one moment: each line once across them, and one device on demand.
  function drawFolded(devices) {
    const box = el("div", { class: "segment-device jax-fold" });
    const ranks = devices.map((d) => d.rank).filter((r) => r >= 0);
    const limited = devices.filter((d) => d.bytes_limit);
    box.append(el("h3", { class: "lane-title" }, devices.length + " devices" + (ranks.length ? " of ranks " + rankRanges(ranks) : "") + " \u2014 " +
                  (limited.length ? "XLA's pool " + bytesSpread(limited.map((d) => d.bytes_in_use || 0)) + " in use of its " +
                   bytesSpread(limited.map((d) => d.bytes_limit)) + " limit; " : "") +
                  "live arrays " + bytesSpread(devices.map((d) => d.arrays_bytes || 0)) + " in " + countSpread(devices.map((d) => d.arrays || 0))));
    const across = new Map();
    for (const d of devices)
      for (const l of jaxLines(d)) {
        let a = across.get(l.key);
        if (!a) across.set(l.key, a = { line: l, bytes: [], counts: [], ranks: [], total: 0 });
        if (l.largest > a.line.largest) a.line = l;
        a.bytes.push(l.bytes), a.counts.push(l.count), a.ranks.push(d.rank), a.total += l.bytes;
      }
    const rows = [...across.values()].sort((x, y) => y.total - x.total).slice(0, 50).map((a) =>
      [{ text: bytesSpread(a.bytes), num: true }, countSpread(a.counts),
       a.ranks.length === devices.length ? "every one" : rankRanges(a.ranks) + " (" + a.ranks.length + ")",
       a.line.shape ? a.line.shape + (a.line.largest ? " (" + fmtBytes(a.line.largest) + ")" : "") : "",
       { text: a.line.where, title: a.line.stack.map(frameWhere).join("\n") }]);
    box.append(el("h4", {}, "Live arrays by line, across the devices"),
               dataTable(["bytes", "arrays", "ranks", "largest", "made at"], rows, { class: "jax-lines jax-across" }));
    const pick = el("select", { class: "jax-one", title: "one device drawn whole" });
    pick.append(el("option", { value: "" }, "one rank's device\u2026"));
    devices.forEach((d, i) => pick.append(el("option", { value: i }, (d.rank >= 0 ? "rank " + d.rank + " \u00b7 " : "") + "device " + d.device +
                                                                     (d.pid ? " \u00b7 pid " + d.pid : ""))));
    const one = el("div", { class: "jax-one-device" });
    pick.addEventListener("change", () => one.replaceChildren(...(pick.value === "" ? [] : [drawDevice(devices[Number(pick.value)])])));
    box.append(el("div", { class: "controls" }, ""), one);
    box.querySelector(".controls").append(pick);
    return box;
  }

  function draw() {
    const view = views[Number(select.value) || 0];
    const shown = view.devices.filter((d) => d.arrays_bytes || d.bytes_in_use || d.no_memory_arrays);
    holder.replaceChildren(...(shown.length > 8 ? [drawFolded(shown)] : shown.map(drawDevice)));
  }
  select.addEventListener("change", draw);
  links.showJax.push((n) => {
    const i = views.findIndex((v) => v.oom === n);
    if (i >= 0) { select.value = i; draw(); }
    section.scrollIntoView();
  });
  draw();
}
