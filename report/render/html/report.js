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

  // Memory over time per device (and process): kinds stacked, on one time
  // base from process start shared by every lane; the peak marked with the
  // groups live at it; each out-of-memory marked where it happened; hover
  // shows the values, a drag zooms, a double click zooms out.
  const charts = $("#timeline");
  const tl = R.timeline || { kinds: [], devices: [] };
  const ooms = R.oom_events || [];
  const lanes = tl.devices || [];
  const lanesOnDevice = (dev) => lanes.filter((d) => d.device === dev).length;
  const endOf = (d) => Math.max(...(d.points || []).map((p) => p[0]), d.peak.time_ns, 1);
  const fullSpan = [0, Math.max(1, R.duration_ns || 0, ...lanes.map(endOf),
                              ...ooms.map((e) => e.time_ns))];
  let span = fullSpan.slice();
  const tip = el("div", { class: "tip", hidden: "" });
  document.body.append(tip);
  const ns = "http://www.w3.org/2000/svg";
  function drawLane(d, holder) {
    const W = 900, H = 230, L = 70, B = 28, T = 14, Rm = 10;
    const pts = d.points || [];
    // OOMs of this lane: its device, and in a merged report its process.
    const laneOoms = ooms.filter((e) => e.device === d.device && (e.pid ? e.pid === d.pid : lanesOnDevice(d.device) === 1));
    const capacity = Math.max(0, ...laneOoms.filter((e) => e.device_info).map((e) => e.total_bytes));
    const ymax = Math.max(d.peak.bytes, capacity, ...laneOoms.map((e) => e.tracked_bytes + e.request_bytes), 1);
    const [t0, t1] = span;
    const X = (t) => L + (W - L - Rm) * (Math.min(Math.max(t, t0), t1) - t0) / (t1 - t0);
    const Y = (b) => H - B - (H - B - T) * b / ymax;
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    svg.setAttribute("class", "chart");
    svg.setAttribute("data-device", d.device);
    const add = (tag, attrs, text) => { const e = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); if (text) e.textContent = text; svg.append(e); return e; };
    for (let i = 0; i <= 4; i++) {  // grid: bytes
      const b = ymax * i / 4;
      add("line", { x1: L, y1: Y(b), x2: W - Rm, y2: Y(b), stroke: i ? "#eee" : "#999" });
      add("text", { x: 4, y: Y(b) + 4, class: "axis" }, i ? fmtBytes(Math.round(b)) : "0");
    }
    for (let i = 0; i <= 5; i++) {  // grid: time since process start
      const t = t0 + (t1 - t0) * i / 5;
      add("line", { x1: X(t), y1: T, x2: X(t), y2: H - B, stroke: "#f2f2f2" });
      add("text", { x: X(t) - (i === 5 ? 50 : i ? 20 : 0), y: H - 8, class: "axis" }, fmtTime(t));
    }
    // Stacked steps: a value holds until the next point.
    const shown = tl.kinds.map((kind, k) => ({ kind, k })).filter(({ k }) => pts.some((p) => p[2 + k] > 0));
    const below = pts.map(() => 0);
    for (const { kind, k } of shown) {
      const top = pts.map((p, i) => below[i] + p[2 + k]);
      let up = "", down = "";
      pts.forEach((p, i) => {
        const xa = X(p[0]), xb = X(i + 1 < pts.length ? pts[i + 1][0] : t1);
        up += (i ? " L" : "M") + xa.toFixed(1) + " " + Y(top[i]).toFixed(1) + " L" + xb.toFixed(1) + " " + Y(top[i]).toFixed(1);
        down = " L" + xb.toFixed(1) + " " + Y(below[i]).toFixed(1) + " L" + xa.toFixed(1) + " " + Y(below[i]).toFixed(1) + down;
      });
      add("path", { d: up + down + " Z", fill: colors[kind] || "#888", "fill-opacity": 0.75, stroke: colors[kind] || "#888",
                    "data-kind": kind });
      top.forEach((v, i) => { below[i] = v; });
    }
    if (pts.length) {  // the highest total inside each point's span
      add("path", { d: pts.map((p, i) => (i ? "L" : "M") + X(p[0]).toFixed(1) + " " + Y(p[1]).toFixed(1)).join(" "),
                    fill: "none", stroke: "#333", "stroke-width": 1, "stroke-dasharray": "2 2", class: "total-line" });
    }
    if (capacity && d.peak.bytes * 10 >= capacity) {
      add("line", { x1: L, y1: Y(capacity), x2: W - Rm, y2: Y(capacity), stroke: "#b3261e", "stroke-dasharray": "6 4", class: "capacity" });
      add("text", { x: L + 4, y: Y(capacity) - 4, fill: "#b3261e", class: "axis" }, "device capacity " + fmtBytes(capacity));
    }
    const groups = (d.peak.groups || []).map((g) => fmtBytes(g.bytes) + " " + g.kind + " \u00d7" + g.count + " at " + (g.where || g.api)).join("\n");
    const px = X(d.peak.time_ns), py = Y(d.peak.bytes);
    const peak = add("circle", { cx: px, cy: py, r: 5, fill: "#b3261e", id: "peak-marker-" + d.device + "-" + (d.pid || 0), class: "peak-marker" });
    const peakTitle = document.createElementNS(ns, "title");
    peakTitle.textContent = "peak " + fmtBytes(d.peak.bytes) + " at " + fmtTime(d.peak.time_ns) + (groups ? "\nlive at the peak:\n" + groups : "");
    peak.append(peakTitle);
    add("text", { x: Math.min(px + 8, W - 160), y: Math.max(py - 6, T + 10), fill: "#b3261e" }, "peak " + fmtBytes(d.peak.bytes));
    laneOoms.forEach((e) => {
      const x = X(e.time_ns);
      const mark = add("line", { x1: x, y1: T, x2: x, y2: H - B, stroke: "#b3261e", "stroke-width": 3, "data-mark": "oom",
                                 "data-oom": ooms.indexOf(e), class: "oom-mark" });
      const t = document.createElementNS(ns, "title");
      t.textContent = "out of memory: " + e.api + " asked for " + fmtBytes(e.request_bytes) + "\n" +
          (e.diagnosis || []).map((x, i) => (i + 1) + ". " + x.message).join("\n");
      mark.append(t);
      mark.addEventListener("click", () => { const o = document.getElementById("oom-" + ooms.indexOf(e)); if (o) o.scrollIntoView(); });
      add("text", { x: x + 4, y: T + 10, fill: "#b3261e", class: "axis" }, "OOM");
    });
    // Hover: the values at the time under the pointer; drag: zoom.
    const cursor = add("line", { x1: 0, y1: T, x2: 0, y2: H - B, stroke: "#555", visibility: "hidden" });
    const band = add("rect", { x: 0, y: T, width: 0, height: H - B - T, fill: "#4e79a7", "fill-opacity": 0.15, visibility: "hidden" });
    const hit = add("rect", { x: L, y: T, width: W - L - Rm, height: H - B - T, fill: "transparent", class: "hover-area" });
    const timeAt = (ev) => {
      const box = svg.getBoundingClientRect();
      const x = (ev.clientX - box.left) * W / box.width;
      return { x, t: t0 + (t1 - t0) * (Math.min(Math.max(x, L), W - Rm) - L) / (W - L - Rm) };
    };
    let dragFrom = null;
    hit.addEventListener("mousemove", (ev) => {
      const { x, t } = timeAt(ev);
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); cursor.setAttribute("visibility", "visible");
      if (dragFrom !== null) { band.setAttribute("x", Math.min(dragFrom, x)); band.setAttribute("width", Math.abs(x - dragFrom)); }
      let i = -1;
      while (i + 1 < pts.length && pts[i + 1][0] <= t) i++;
      tip.replaceChildren(el("div", { class: "tip-time" }, fmtTime(t) + " \u00b7 device " + d.device + (d.pid ? " \u00b7 pid " + d.pid : "")));
      if (i >= 0) {
        for (const { kind, k } of shown) tip.append(el("div", {}, kind + ": " + fmtBytes(pts[i][2 + k])));
        tip.append(el("div", {}, "highest in span: " + fmtBytes(pts[i][1])));
      } else {
        tip.append(el("div", {}, "nothing live yet"));
      }
      tip.hidden = false;
      tip.style.left = ev.pageX + 14 + "px";
      tip.style.top = ev.pageY + 10 + "px";
    });
    hit.addEventListener("mouseleave", () => { tip.hidden = true; cursor.setAttribute("visibility", "hidden"); });
    hit.addEventListener("mousedown", (ev) => { dragFrom = timeAt(ev).x; band.setAttribute("visibility", "visible"); ev.preventDefault(); });
    hit.addEventListener("mouseup", (ev) => {
      const from = dragFrom;
      dragFrom = null;
      band.setAttribute("visibility", "hidden");
      const to = timeAt(ev).x;
      if (from === null || Math.abs(to - from) < 5) return;
      const ta = t0 + (t1 - t0) * (Math.min(from, to) - L) / (W - L - Rm), tb = t0 + (t1 - t0) * (Math.max(from, to) - L) / (W - L - Rm);
      span = [Math.max(fullSpan[0], ta), Math.min(fullSpan[1], Math.max(tb, ta + 1))];
      drawAll();
    });
    svg.addEventListener("dblclick", () => { span = fullSpan.slice(); drawAll(); });
    const title = el("h3", { style: "font-size:13px;margin:10px 0 4px" },
        "device " + d.device + (d.pid ? " \u00b7 pid " + d.pid : "") + " \u2014 peak " + fmtBytes(d.peak.bytes) + " at " +
        fmtTime(d.peak.time_ns) + " after process start");
    const legend = el("div", { class: "legend" });
    for (const { kind } of shown) { const sp = el("span"); const i = el("i"); i.style.background = colors[kind]; sp.append(i, kind); legend.append(sp); }
    if (laneOoms.length) { const sp = el("span"); const i = el("i"); i.style.background = "#b3261e"; sp.append(i, "out of memory"); legend.append(sp); }
    holder.append(title, svg, legend);
  }
  function drawAll() {
    charts.replaceChildren();
    if (span[0] > fullSpan[0] || span[1] < fullSpan[1])
      charts.append(el("div", { class: "meta zoomed" }, "zoomed to " + fmtTime(span[0]) + " \u2013 " + fmtTime(span[1]) + " (double-click to zoom out)"));
    for (const d of lanes) drawLane(d, charts);
    if (!lanes.length) charts.append(el("div", { class: "meta" }, "No memory timeline in this report."));
  }
  drawAll();

  // Out-of-memory events: the request, the ranked diagnosis in the text
  // report's words, the failing stack, what others held.
  const oomBox = $("#oom");
  if (!ooms.length) oomBox.closest("section").hidden = true;
  ooms.forEach((e, n) => {
    const box = el("div", { class: "oom", id: "oom-" + n });
    box.append(el("h3", {}, "Out of memory at " + fmtTime(e.time_ns) + ": " + e.api + " asked for " + fmtBytes(e.request_bytes) +
        " on device " + e.device + (e.device_info ? " (" + fmtBytes(e.free_bytes) + " free of " + fmtBytes(e.total_bytes) + ")" : "")));
    const causes = el("ol", { class: "causes" });
    for (const x of e.diagnosis || []) {
      const li = el("li", { "data-cause": x.cause });
      li.append(el("b", {}, x.cause.replace(/_/g, " ")), ": " + x.message);
      causes.append(li);
    }
    box.append(causes);
    const held = el("div", { class: "meta" }, "this process held " + fmtBytes(e.tracked_bytes) +
        (e.other_processes && e.other_processes.length ? "; other processes: " + e.other_processes.map((p) => (p.name || "pid " + p.pid) + " " + (p.bytes_known === false ? "(unknown)" : fmtBytes(p.bytes))).join(", ") : ""));
    box.append(held);
    const stack = el("div", { class: "stack" });
    // The program's frames: neither CUDA, a framework's allocator, the
    // interpreter's own C frames nor unnamed ones; all frames when none is left.
    const framework = (f) => !f.python && (/(^|\/)(lib(torch|c10|ffi|python)|python3)/.test(f.module || "") || !f.function || f.function === "??");
    const own = (e.stack || []).filter((f) => !isCudaFrame(f) && !framework(f));
    (own.length ? own : e.stack || []).slice(0, 8).forEach((f) => {
      stack.append(el("div", {}, (f.function || "??") + (f.file ? "  " + f.file.split("/").pop() + ":" + f.line : "")));
    });
    box.append(stack);
    oomBox.append(box);
  });

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
