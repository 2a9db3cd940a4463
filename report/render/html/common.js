// The report's data and what every view shares: formatting, element
// builders, and which frames belong to the program.
"use strict";
const R = JSON.parse(document.getElementById("cudaleak-data").textContent);
const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};
const svgNs = "http://www.w3.org/2000/svg";
const svgEl = (parent, tag, attrs, text) => {
  const e = document.createElementNS(svgNs, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.append(e);
  return e;
};
const units = ["B", "KiB", "MiB", "GiB", "TiB"];
const fmtBytes = (n) => {
  let u = 0;
  let v = n;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return u === 0 ? n + " B" : v.toFixed(1) + " " + units[u];
};
// A device's name; memory of no device is managed memory prefetched to the
// host, or memory whose device was not known.
const deviceName = (d) => Number(d) >= 0 ? "device " + d : "host / no device";
const fmtTime = (ns) => ns >= 1e9 ? (ns / 1e9).toFixed(2) + " s" : ns >= 1e6 ? (ns / 1e6).toFixed(2) + " ms" : (ns / 1e3).toFixed(1) + " us";
// Axes: one unit for every tick of an axis, picked from the axis's range, and
// round steps (1, 2 or 5 times a power of ten of that unit).
const niceStep = (rough) => {
  const p = Math.pow(10, Math.floor(Math.log10(rough)));
  const f = rough / p;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
};
const timeUnits = [["ns", 1], ["us", 1e3], ["ms", 1e6], ["s", 1e9], ["min", 60e9]];
const byteUnits = units.map((u, i) => [u, Math.pow(1024, i)]);
// An axis from lo to hi (at least `count` ticks' worth): { unit, scale, step, ticks, label(value) }.
const axisOf = (lo, hi, count, unitList, minutesFrom) => {
  const top = Math.max(Math.abs(lo), Math.abs(hi), 1);
  let [unit, scale] = unitList[0];
  for (const [u, f] of unitList) if (top >= f && (u !== "min" || top >= minutesFrom)) [unit, scale] = [u, f];
  const step = niceStep(Math.max((hi - lo) / scale / count, 1e-9)) * scale;
  const decimals = Math.max(0, -Math.floor(Math.log10(step / scale) + 1e-9));
  const ticks = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) ticks.push(v);
  const label = (v) => (Math.abs(v) < step * 1e-6 ? 0 : v / scale).toFixed(decimals) + " " + unit;
  return { unit, scale, step, ticks, label };
};
const timeAxis = (lo, hi, count) => axisOf(lo, hi, count, timeUnits, 300e9);
const bytesAxis = (hi, count) => {
  const a = axisOf(0, hi, count, byteUnits, 0);
  const top = Math.ceil(hi / a.step - 1e-9) * a.step;  // the axis ends at a tick
  return axisOf(0, top, Math.round(top / a.step), byteUnits, 0);
};
const fmtPercent = (part, whole) => whole ? (100 * part / whole).toFixed(part * 1000 < whole ? 2 : 1) + "%" : "";
const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
const memoryKinds = ["device", "pinned", "registered", "managed", "async", "vmm", "array"];
const kindColors = { device: "#4e79a7", pinned: "#f28e2b", registered: "#e15759", managed: "#76b7b2", async: "#59a14f",
                     vmm: "#edc948", array: "#b07aa1" };
const badColor = "#b3261e";

// A shared tooltip, placed next to the pointer.
const tip = el("div", { class: "tip", hidden: "" });
document.body.append(tip);
const showTip = (ev, lines) => {
  tip.replaceChildren(...lines.map((line, i) => el("div", i === 0 ? { class: "tip-time" } : {}, line)));
  tip.hidden = false;
  tip.style.left = Math.min(ev.pageX + 14, window.scrollX + window.innerWidth - 340) + "px";
  tip.style.top = ev.pageY + 10 + "px";
};
const hideTip = () => { tip.hidden = true; };

// Frames. Python frames come from the interpreter (language "python"); the
// rest are native. Whose code each frame is, the user's or a library's, comes
// with the report (report/model/frame_owner.h decides it for the text and the
// page alike): OWNERS maps a frame's module, function and file to its owner,
// and a frame it does not name is the user's.
const OWNERS = JSON.parse((document.getElementById("cudaleak-frame-owners") || {}).textContent || "{}");
const isPython = (f) => f.language === "python" || f.python === true;
const ownerOf = (f) => OWNERS[(f.module || "") + "\n" + (f.function || "") + "\n" + (f.file || "")] || "user";
const moduleName = (f) => (f.module || "").split("/").pop();
// "Runtime" frames are those a reader skips: CUDA (its libraries and its
// headers' code), the C and C++ runtimes, the interpreter's own C code, cudaleak's.
const isRuntimeFrame = (f) => ["cuda", "cuda_headers", "system", "interpreter", "cudaleak"].includes(ownerOf(f));
// Frameworks between the program and CUDA (and installed Python packages): not the program's line.
const isFrameworkFrame = (f) => ["framework", "installed_python"].includes(ownerOf(f)) ||
                                (!isPython(f) && (!f.function || f.function === "??") && ownerOf(f) !== "user");
const frameName = (f) => isPython(f) ? (f.function || "??") + " (" + (f.file || "").split("/").pop() + ":" + f.line + ")"
                                     : f.function || moduleName(f) || "??";
const frameWhere = (f) => (f.function || "??") + (f.file ? " (" + f.file.split("/").pop() + ":" + f.line + ")" : "");
// The user's frames of a stack, innermost first (with Python frames, the user's Python lines when there
// are any); where none is the user's, the installed code's frames that still say where.
const programFrames = (stack) => {
  const own = (stack || []).filter((f) => ownerOf(f) === "user");
  const ownPython = own.filter((f) => isPython(f) || (!f.module && /\.py$/.test(f.file || "")));
  if (own.length) return ownPython.length ? ownPython : own;
  return (stack || []).filter((f) => isFrameworkFrame(f) && ownerOf(f) !== "user");
};
const where = (g) => {
  const f = programFrames(g.stack)[0];
  return f ? frameWhere(f) : g.where || g.api || g.kind;
};
// "device from cudaMalloc at step (loop.cu:8)"; the api is left out where the
// program called the driver directly and the stack names none.
const groupLabel = (g) => g.kind + (g.api ? " from " + g.api : "") + " at " + where(g);

// Leak groups that count (neither suppressed nor held by a caching allocator).
const leaks = R.leaks || [];
const counted = leaks.filter((g) => !g.suppressed_by && !g.cached_by);
const merged = (R.processes || []).length > 1;
// Times are since the first process's start (a merge aligns the processes'
// starts): where a process started on that base, 0 in a single report.
const firstStart = Math.min(...(R.processes || []).map((p) => p.start_unix_ns || Infinity));
const processStart = (pid) => {
  const p = merged && (R.processes || []).find((x) => x.pid === pid);
  return p && p.start_unix_ns && isFinite(firstStart) ? p.start_unix_ns - firstStart : 0;
};
// A time of the report as the time since its process started, as the timeline reads it.
const fmtSince = (t, pid) => fmtTime(t - processStart(pid));
// A distributed job's ranks, as the text report writes them: "0-3,5-7".
const rankRanges = (list) => {
  const ranks = [...new Set(list)].sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i < ranks.length;) {
    let j = i;
    while (j + 1 < ranks.length && ranks[j + 1] === ranks[j] + 1) j++;
    out.push(j - i >= 2 ? ranks[i] + "-" + ranks[j] : j === i + 1 ? ranks[i] + "," + ranks[j] : String(ranks[i]));
    i = j + 1;
  }
  return out.join(",");
};
// The job a merged report's processes ran in (report/analyze/job.h): the
// ranks that reported, the world size, hosts, and ranks with no report.
const job = (() => {
  const ranked = (R.processes || [R.process]).filter((p) => p && p.rank >= 0);
  const ranks = [...new Set(ranked.map((p) => p.rank))].sort((a, b) => a - b);
  const world = Math.max(0, ...ranked.map((p) => p.world_size || 0));
  const missing = [];
  for (let k = 0; k < world; k++) if (!ranks.includes(k)) missing.push(k);
  return { ranks, world, missing, of: world || ranks.length,
           hosts: [...new Set(ranked.map((p) => p.host).filter(Boolean))].sort(),
           launchers: [...new Set(ranked.map((p) => p.launcher).filter(Boolean))].sort() };
})();
// "rank 3" for a process of a job, "" otherwise; its rank looked up by pid.
const rankOfPid = (pid) => { const p = (R.processes || []).find((x) => x.pid === pid); return p && p.rank >= 0 ? p.rank : -1; };
// Which process or ranks a group belongs to in a merged report.
const groupProcess = (g) => g.ranks && g.ranks.length
    ? "ranks " + rankRanges(g.ranks.map((s) => s.rank)) + " (" + g.ranks.length + " of " + job.of + ")"
    : g.pid + (g.rank >= 0 ? " (rank " + g.rank + ")" : "");
const groupDevice = (g) => g.device >= 0 || !(g.ranks && g.ranks.length) ? g.device
    : rankRanges(g.ranks.map((s) => s.device).filter((d) => d >= 0));
const groupTimes = (g) => {
  const times = (g.allocations || []).map((a) => a.time_ns).filter((t) => t !== undefined);
  return times.length ? [Math.min(...times), Math.max(...times)] : null;
};

// PyTorch's views of its cache: the report's own (at exit, or a snapshot),
// then one per out-of-memory PyTorch raised. The report's own is left out
// when it is the one its last PyTorch out-of-memory carries.
const pytorchViews = (() => {
  const views = [];
  const atOom = (R.oom_events || []).some((e) => e.pytorch);
  if (R.pytorch && (R.pytorch.devices || []).length && !(R.pytorch.when === "oom" && atOom))
    views.push({ label: "at " + (R.pytorch.when || "exit"), devices: R.pytorch.devices, settings: R.pytorch.settings });
  (R.oom_events || []).forEach((e, n) => {
    if (e.pytorch) views.push({ label: "at out-of-memory #" + (n + 1) + " (" + fmtSince(e.time_ns, e.pid) + ")", devices: [e.pytorch], oom: n });
  });
  return views;
})();

// A legend: entries of { color, text, dashed }.
const legendEl = (entries) => {
  const legend = el("div", { class: "legend" });
  for (const { color, text, dashed } of entries) {
    const swatch = el("i", dashed ? { class: "dashed" } : {});
    swatch.style.background = color;
    const entry = el("span");
    entry.append(swatch, text);
    legend.append(entry);
  }
  return legend;
};

// A plain table; a cell is a value (numbers right-aligned) or { text, title, num }.
const dataTable = (headers, rows, attrs) => {
  const table = el("table", attrs);
  const hr = el("tr");
  for (const h of headers) hr.append(el("th", {}, h));
  table.append(el("thead"), el("tbody"));
  table.tHead.append(hr);
  for (const row of rows) {
    const tr = el("tr");
    for (const v of row) {
      const cell = typeof v === "object" && v !== null ? v : { text: v, num: typeof v === "number" };
      const td = el("td", cell.num ? { class: "num" } : {}, String(cell.text));
      if (cell.title) td.title = cell.title;
      tr.append(td);
    }
    table.tBodies[0].append(tr);
  }
  return table;
};

// Views talk through these links, filled in by the views that own them.
const links = {
  selectGroup: [],      // (group) a table row was chosen
  filterGroups: [],     // (Set of groups, label) a flame frame was chosen; null to clear
  showOom: [],          // (index) an out-of-memory mark was chosen
  showSegments: [],     // (index) the segment map of PyTorch's cache at that out-of-memory
  showJax: [],          // (index) JAX's view of its device at that out-of-memory
};
const emit = (name, ...args) => { for (const f of links[name]) f(...args); };
