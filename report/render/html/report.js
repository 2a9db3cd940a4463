// cudaleak HTML report: everything below works from the embedded JSON; no network.
(function () {
  "use strict";
  const R = JSON.parse(document.getElementById("cudaleak-data").textContent);
  const $ = (sel) => document.querySelector(sel);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  const fmtBytes = (n) => {
    let u = 0;
    let v = n;
    while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
    return u === 0 ? n + " B" : v.toFixed(1) + " " + units[u];
  };
  const fmtTime = (ns) => ns >= 1e9 ? (ns / 1e9).toFixed(2) + " s" : ns >= 1e6 ? (ns / 1e6).toFixed(2) + " ms" : (ns / 1e3).toFixed(1) + " us";
  const memoryKinds = ["device", "pinned", "registered", "managed", "async", "vmm", "array"];
  const colors = { device: "#4e79a7", pinned: "#f28e2b", registered: "#e15759", managed: "#76b7b2", async: "#59a14f",
                   vmm: "#edc948", array: "#b07aa1" };
  const isCudaFrame = (f) => /(^|\/)lib(cu|nccl|nv)/.test(f.module || "") ||
                             /^(cu[a-z]*|nccl)[A-Z]\w*($|[<(])/.test(f.function || "") ||
                             (f.function || "").startsWith("libcudart_static_");
  const where = (g) => {
    const f = (g.stack || []).find((x) => !isCudaFrame(x));
    if (!f) return g.api;
    return (f.function || "??") + (f.file ? " (" + f.file.split("/").pop() + ":" + f.line + ")" : "");
  };
  const leaks = R.leaks || [];
  const counted = leaks.filter((g) => !g.suppressed_by && !g.cached_by);
  const merged = (R.processes || []).length > 1;

  // Headline: totals by kind and device, and the verdict in one sentence.
  document.title = "cudaleak: " + (merged ? R.processes.length + " processes" : (R.process.exe || "").split("/").pop());
  $("#title").textContent = merged ? "cudaleak report: " + R.processes.length + " processes"
                                   : "cudaleak report: " + (R.process.argv || [R.process.exe]).join(" ");
  $("#meta").textContent = "reason: " + R.reason + (R.checkpoint ? " (" + R.checkpoint + ")" : "") +
      " \u00b7 written " + new Date(R.timestamp * 1000).toISOString() + " \u00b7 cudaleak " + R.tool_version +
      (merged ? "" : " \u00b7 pid " + R.process.pid + (R.process.rank >= 0 ? " rank " + R.process.rank : ""));
  const s = R.summary;
  const handles = counted.filter((g) => !memoryKinds.includes(g.kind)).reduce((a, g) => a + g.count, 0);
  const verdict = $("#verdict");
  if (!counted.length) {
    verdict.className = "clean";
    verdict.textContent = "No CUDA resources leaked" + (s.suppressed_count ? " (" + s.suppressed_count + " suppressed)." : ".");
  } else {
    const top = counted[0];
    verdict.textContent = counted.length + " leak group" + (counted.length > 1 ? "s" : "") + " hold " +
        fmtBytes(s.leaked_bytes) + (handles ? " and " + handles + " handle" + (handles > 1 ? "s" : "") + " (streams, events, contexts...) were never released" : "") +
        "; the biggest: " + (top.bytes ? fmtBytes(top.bytes) + " of " : top.count + " ") + top.kind + " from " + top.api +
        " in " + where(top) + ".";
  }
  const totals = $("#totals");
  const card = (v, k) => { const c = el("div", { class: "card" }); c.append(el("div", { class: "v" }, v), el("div", { class: "k" }, k)); totals.append(c); };
  card(fmtBytes(s.leaked_bytes), "leaked memory");
  card(String(s.leaked_count), "resources never released");
  for (const [kind, t] of Object.entries(s.by_kind || {}))
    card(t.bytes ? fmtBytes(t.bytes) : String(t.count), kind + (t.bytes ? " (" + t.count + ")" : ""));
  const byDevice = {};
  for (const g of counted) if (memoryKinds.includes(g.kind)) byDevice[g.device] = (byDevice[g.device] || 0) + g.bytes;
  for (const [d, b] of Object.entries(byDevice)) card(fmtBytes(b), "device " + d);
  if (s.suppressed_count) card(String(s.suppressed_count), "suppressed");
  if (s.cached_count) card(fmtBytes(s.cached_bytes), "cached by allocators (" + s.cached_count + ")");

  // Leak groups: sortable, filterable; a click shows the stack.
  const columns = [
    { key: "kind", label: "kind", get: (g) => g.kind },
    { key: "bytes", label: "bytes", get: (g) => g.bytes, num: true, show: (g) => g.bytes ? fmtBytes(g.bytes) : "" },
    { key: "count", label: "count", get: (g) => g.count, num: true },
    { key: "device", label: "device", get: (g) => g.device, num: true },
    { key: "api", label: "api", get: (g) => g.api },
    { key: "where", label: "where", get: (g) => where(g) },
  ];
  if (merged) columns.push({ key: "pid", label: "process", get: (g) => g.pid, num: true,
                             show: (g) => g.pid + (g.rank >= 0 ? " (rank " + g.rank + ")" : "") });
  const head = $("#leak-table thead tr");
  let sortKey = "bytes", ascending = false;
  for (const c of columns) {
    const th = el("th", { "data-key": c.key }, c.label);
    th.addEventListener("click", () => { ascending = sortKey === c.key ? !ascending : !c.num; sortKey = c.key; render(); });
    head.append(th);
  }
  head.append(el("th", {}, "notes"));
  const kindSelect = $("#kind-filter");
  for (const k of [...new Set(leaks.map((g) => g.kind))]) kindSelect.append(el("option", { value: k }, k));
  const body = $("#leak-table tbody");
  function render() {
    const text = $("#text-filter").value.toLowerCase();
    const kind = kindSelect.value;
    const col = columns.find((c) => c.key === sortKey);
    const rows = leaks.filter((g) => (!kind || g.kind === kind) &&
        (!text || (where(g) + " " + g.api + " " + (g.stack || []).map((f) => f.function + " " + f.file).join(" ")).toLowerCase().includes(text)));
    rows.sort((a, b) => { const x = col.get(a), y = col.get(b); const r = x < y ? -1 : x > y ? 1 : 0; return ascending ? r : -r; });
    for (const th of head.querySelectorAll("th")) th.className = th.dataset.key === sortKey ? "sorted" + (ascending ? " asc" : "") : "";
    body.replaceChildren();
    for (const g of rows) {
      const tr = el("tr");
      for (const c of columns) tr.append(el("td", c.num ? { class: "num" } : {}, String(c.show ? c.show(g) : c.get(g))));
      const notes = el("td");
      if (g.suppressed_by) notes.append(el("span", { class: "tag supp", title: g.suppressed_by }, "suppressed"));
      if (g.cached_by) notes.append(el("span", { class: "tag supp", title: "held by a caching allocator, not a leak" }, "cached by " + g.cached_by));
      if (g.growing) notes.append(el("span", { class: "tag grow" }, "growing " + (g.count_history || []).join("\u2192") + "\u2192" + g.count));
      if (g.baseline) notes.append(el("span", { class: "tag" }, g.baseline));
      if (g.released_by) notes.append(el("span", { class: "tag" }, "freed by " + g.released_by));
      tr.append(notes);
      tr.addEventListener("click", () => { for (const r of body.children) r.classList.remove("selected"); tr.classList.add("selected"); showStack(g); });
      body.append(tr);
    }
    $("#row-count").textContent = rows.length + " of " + leaks.length + " groups";
  }
  function showStack(g) {
    const panel = $("#stack-panel");
    panel.replaceChildren(el("div", {}, (g.bytes ? fmtBytes(g.bytes) + " of " : "") + g.kind + " in " + g.count +
        " resource(s), created by " + g.api + (g.device >= 0 ? " on device " + g.device : "")));
    (g.stack || []).forEach((f, i) => {
      const line = el("div");
      line.append("#" + i + " ", el("span", { class: "fn" }, f.function || "??"));
      line.append((f.file ? "  " + f.file + ":" + f.line : "") + "  (" + (f.module || "").split("/").pop() + ")" + (f.inlined ? " [inlined]" : ""));
      panel.append(line);
    });
    panel.hidden = false;
  }
  $("#text-filter").addEventListener("input", render);
  kindSelect.addEventListener("change", render);
  render();

  // Icicle of leaked bytes by call stack, outermost frame at the top.
  const root = { name: "all", bytes: 0, children: new Map() };
  for (const g of counted) {
    if (!g.bytes || !memoryKinds.includes(g.kind)) continue;  // reservations and mappings are not memory
    root.bytes += g.bytes;
    let node = root;
    const frames = (g.stack || []).slice().reverse();
    for (const f of frames) {
      const name = f.function || (f.module || "??").split("/").pop();
      if (!node.children.has(name)) node.children.set(name, { name, bytes: 0, children: new Map() });
      node = node.children.get(name);
      node.bytes += g.bytes;
    }
  }
  const flame = $("#flame");
  let depth = 0;
  const palette = ["#f6c28b", "#f4a259", "#ee8959", "#e76f51", "#f9d79b", "#f2b880"];
  (function place(node, x, w, d) {
    if (!node.bytes || w < 0.05) return;
    depth = Math.max(depth, d + 1);
    const div = el("div", { class: "node", title: node.name + " \u2014 " + fmtBytes(node.bytes) }, node.name + " " + fmtBytes(node.bytes));
    div.style.left = x + "%"; div.style.width = w + "%"; div.style.top = d * 18 + "px";
    div.style.background = d === 0 ? "#c9d3e3" : palette[(node.name.length + d) % palette.length];
    flame.append(div);
    let cx = x;
    for (const child of [...node.children.values()].sort((a, b) => b.bytes - a.bytes)) {
      const cw = w * child.bytes / node.bytes;
      place(child, cx, cw, d + 1);
      cx += cw;
    }
  })(root, 0, 100, 0);
  flame.style.height = Math.max(depth, 1) * 18 + 2 + "px";
  if (!root.bytes) flame.replaceChildren(el("div", { class: "meta", style: "padding:6px" }, "No leaked memory to draw."));

  // Memory over time per device (and process), by kind, peak marked.
  const charts = $("#timeline");
  const tl = R.timeline || { kinds: [], devices: [] };
  for (const d of tl.devices || []) {
    const W = 900, H = 220, L = 70, B = 28, T = 14;
    const pts = d.points || [];
    const t0 = pts.length ? pts[0][0] : 0;
    const t1 = Math.max(pts.length ? pts[pts.length - 1][0] : 1, d.peak.time_ns, t0 + 1);
    const ymax = Math.max(d.peak.bytes, 1);
    const X = (t) => L + (W - L - 10) * (t - t0) / (t1 - t0);
    const Y = (b) => H - B - (H - B - T) * b / ymax;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("class", "chart");
    svg.setAttribute("data-device", d.device);
    const add = (tag, attrs, text) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; svg.append(e); return e; };
    add("line", { x1: L, y1: H - B, x2: W - 10, y2: H - B, stroke: "#999" });
    add("text", { x: 4, y: T + 4 }, fmtBytes(ymax));
    add("text", { x: 4, y: H - B }, "0");
    add("text", { x: L, y: H - 8 }, "0 s");
    add("text", { x: W - 70, y: H - 8 }, fmtTime(t1 - t0));
    tl.kinds.forEach((kind, k) => {
      if (!pts.some((p) => p[2 + k] > 0)) return;
      // Steps: a value holds until the next point.
      const path = pts.map((p, i) => (i ? "H" + X(p[0]).toFixed(1) + " V" : "M" + X(p[0]).toFixed(1) + " ") + Y(p[2 + k]).toFixed(1)).join(" ") +
          " H" + X(t1).toFixed(1);
      add("path", { d: path, fill: "none", stroke: colors[kind] || "#888", "stroke-width": 2, "data-kind": kind });
    });
    const px = X(d.peak.time_ns), py = Y(d.peak.bytes);
    add("circle", { cx: px, cy: py, r: 5, fill: "#b3261e", id: "peak-marker-" + d.device + "-" + (d.pid || 0), class: "peak-marker" });
    add("text", { x: Math.min(px + 8, W - 160), y: Math.max(py - 6, T + 10), fill: "#b3261e" }, "peak " + fmtBytes(d.peak.bytes));
    const title = el("h3", { style: "font-size:13px;margin:10px 0 4px" },
        "device " + d.device + (d.pid ? " \u00b7 pid " + d.pid : "") + " \u2014 peak " + fmtBytes(d.peak.bytes) + " at " + fmtTime(d.peak.time_ns));
    const legend = el("div", { class: "legend" });
    tl.kinds.forEach((kind, k) => { if (pts.some((p) => p[2 + k] > 0)) { const sp = el("span"); const i = el("i"); i.style.background = colors[kind]; sp.append(i, kind); legend.append(sp); } });
    charts.append(title, svg, legend);
  }
  if (!(tl.devices || []).length) charts.append(el("div", { class: "meta" }, "No memory timeline in this report."));

  // Per process and rank.
  const procs = $("#processes");
  if (merged) {
    const table = el("table");
    const hr = el("tr");
    for (const h of ["pid", "rank", "program", "reason", "leaked", "resources"]) hr.append(el("th", {}, h));
    table.append(el("thead"), el("tbody"));
    table.tHead.append(hr);
    for (const p of R.processes) {
      const tr = el("tr");
      for (const v of [p.pid, p.rank >= 0 ? p.rank : "", (p.argv || [p.exe]).join(" "), p.reason, fmtBytes(p.leaked_bytes), p.leaked_count]) tr.append(el("td", {}, String(v)));
      table.tBodies[0].append(tr);
    }
    procs.append(table);
  } else {
    procs.closest("section").hidden = true;
  }
  document.body.dataset.ready = "1";
})();
