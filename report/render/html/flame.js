// Flame graph (an icicle: outermost frame on top, drawn by the vendored
// d3-flame-graph) of memory by call stack: leaked, live at the peak, held by
// caching allocators, or PyTorch's live tensors by Python line. One tree per
// process under the top row, so that the `main` of unrelated programs stays
// apart. Search highlights frames, a click zooms into a frame (and filters the
// table to the groups under it), hovering shows bytes, count, share and
// source line; runtime frames can be hidden.
function renderFlame() {
  const box = $("#flame"), modeSelect = $("#flame-mode"), hide = $("#flame-hide"), search = $("#flame-search");
  const status = $("#flame-status");
  const sources = [];
  const add = (key, label, items) => { if (items.length) sources.push({ key, label, items }); };
  add("leaked", "leaked memory", counted.filter((g) => g.bytes && memoryKinds.includes(g.kind))
                                        .map((g) => ({ bytes: g.bytes, count: g.count, stack: g.stack, pid: g.pid, group: g })));
  add("peak", "live at the peak", ((R.timeline || {}).devices || []).flatMap((d) => (d.peak.groups || [])
      .map((p) => ({ bytes: p.bytes, count: p.count, stack: p.stack, pid: d.pid }))));
  add("cached", "held by caching allocators", leaks.filter((g) => g.cached_by && g.bytes)
                                                   .map((g) => ({ bytes: g.bytes, count: g.count, stack: g.stack, pid: g.pid, group: g })));
  const tensorsOf = (v) => (v.devices || []).flatMap((d) => (d.live_tensors || []).filter((t) => (t.stack || []).length)
                                                     .map((t) => ({ bytes: t.bytes, count: t.count || 1, stack: t.stack })));
  const view = pytorchViews.find((v) => tensorsOf(v).length);
  if (view) add("tensors", "live PyTorch tensors (" + view.label + ")", tensorsOf(view));
  if (!sources.length) { $("#flame-section").hidden = true; return; }  // no memory to draw
  for (const s of sources) modeSelect.append(el("option", { value: s.key }, s.label));
  // The processes: a merged report's, or the one of a single report.
  const processes = merged ? R.processes : [R.process || {}];
  const processOf = (pid) => processes.find((p) => p.pid === pid) || (merged ? { pid } : processes[0]);
  const processName = (p) => (p.exe || (p.argv || [])[0] || "program").split("/").pop() + (p.pid ? " (pid " + p.pid +
                             (p.rank >= 0 ? ", rank " + p.rank : "") + ")" : "");
  const kindOf = (n) => n.depth === 0 ? "root" : !n.frame ? "process" : isPython(n.frame) ? "py" : isRuntimeFrame(n.frame) ? "runtime"
                                                  : isFrameworkFrame(n.frame) ? "framework" : "native";
  const palette = { native: ["#f6c28b", "#f4a259", "#ee8959", "#f9d79b", "#f2b880"], py: ["#9fd39a", "#b6e0a4", "#88c98a", "#c6e6b4"],
                    framework: ["#e9d3b4", "#e1c59e"], runtime: ["#c9d3e3", "#b9c6da"], root: ["#aeb8c8"], process: ["#cfd6e2"] };
  let chart = null, root = null, zoomed = null;

  // The tree: all memory, then one child per process, then frames outermost first.
  function build() {
    const source = sources.find((s) => s.key === modeSelect.value) || sources[0];
    const make = (name, frame, depth, parent) => ({ name, frame, depth, parent, value: 0, bytes: 0, count: 0, children: [], byName: new Map(),
                                                    groups: new Set() });
    const top = make("all " + source.label, null, 0, null);
    const byPid = new Map();
    for (const item of source.items) {
      const p = processOf(item.pid);
      let node = byPid.get(p);
      if (!node) {
        node = make(processName(p), null, 1, top);
        node.process = p;
        byPid.set(p, node);
        top.children.push(node);
      }
      const path = [top, node];
      for (const f of (item.stack || []).filter((f) => !hide.checked || !isRuntimeFrame(f)).slice().reverse()) {
        const name = frameName(f);
        let child = node.byName.get(name);
        if (!child) {
          child = make(name, f, node.depth + 1, node);
          node.byName.set(name, child);
          node.children.push(child);
        }
        path.push(child);
        node = child;
      }
      for (const n of path) {
        n.bytes += item.bytes;
        n.count += item.count || 0;
        if (item.group) n.groups.add(item.group);
      }
    }
    // A node's value is its total (d3-flame-graph takes the self part as the
    // rest of its children's); the widest child first.
    (function settle(n) {
      n.value = n.bytes;
      n.children.sort((a, b) => b.bytes - a.bytes);
      n.children.forEach(settle);
      delete n.byName;
    })(top);
    root = zoomed = top;
    return top;
  }
  const query = () => search.value.trim().toLowerCase();
  const matches = (n, q) => !!q && (n.name.toLowerCase().includes(q) || ((n.frame || {}).file || "").toLowerCase().includes(q));
  const color = (d) => {
    if (d.highlight) return "#d94dbb";
    const colors = palette[kindOf(d.data)];
    let h = 0;
    for (const c of d.data.name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return colors[h % colors.length];
  };
  const tooltip = Object.assign(() => {}, {
    show(ev, d) {
      const n = d.data, f = n.frame || {};
      const proc = n.depth >= 1 ? (function up(x) { return x.depth === 1 ? x : up(x.parent); })(n) : null;
      const lines = [n.name, fmtBytes(n.bytes) + " in " + plural(n.count, "allocation") + " \u00b7 " + fmtPercent(n.bytes, root.bytes) +
                     " of " + fmtBytes(root.bytes) + (proc && proc !== n ? " \u00b7 " + fmtPercent(n.bytes, proc.bytes) + " of its process" : "")];
      if (f.file) lines.push(f.file + ":" + f.line);
      if (n.frame) lines.push(isPython(f) ? "Python" : moduleName(f) || "native");
      lines.push(n === zoomed && n !== root ? "click the top row to zoom out" : "click to zoom" + (n.groups.size ? " and list its " +
                 plural(n.groups.size, "group") + " in the table" : ""));
      showTip(ev, lines);
    },
    hide: hideTip,
  });
  // The drawn frames carry what the tests and the page's styles read.
  function tag() {
    d3fg.select(box).selectAll("g.frame").each(function (d) {
      const n = d.data;
      this.setAttribute("data-name", n.name);
      this.setAttribute("data-bytes", n.bytes);
      this.setAttribute("data-depth", n.depth);
      this.setAttribute("data-kind", kindOf(n));
      this.classList.toggle("zoomed", n === zoomed);
      this.classList.toggle("match", !!d.highlight);
    });
  }
  function say() {
    const q = query();
    let matched = 0;
    (function walk(n) { if (n !== root && matches(n, q)) { matched += n.bytes; return; } n.children.forEach(walk); })(root);
    status.textContent = (q ? "matched " + fmtBytes(matched) + " (" + fmtPercent(matched, root.bytes) + ")" : "") +
        (zoomed !== root ? (q ? " \u00b7 " : "") + "zoomed into " + zoomed.name + " \u2014 click the top row to zoom out" : "");
  }
  function draw() {
    const data = build();
    const depth = (function deepest(n) { return n.children.reduce((a, c) => Math.max(a, deepest(c)), n.depth); })(data);
    box.replaceChildren();
    chart = d3fg.flamegraph()
      .width(width())
      .cellHeight(20)
      .height((depth + 1) * 20 + 4)  // full height: every level of the deepest stack
      .inverted(true)
      .minFrameSize(1)
      .transitionDuration(250)
      .tooltip(tooltip)
      .setColorMapper(color)
      .getName((d) => d.data.name + " \u00b7 " + fmtBytes(d.data.bytes))
      .setSearchMatch((d, term) => matches(d.data, term))
      .setSearchHandler(() => {})
      .onClick((d) => {
        zoomed = d.data;
        picker.value = d.depth === 1 ? String(root.children.indexOf(d.data)) : d.depth === 0 ? "" : picker.value;
        const n = d.data;
        emit("filterGroups", n === root || !n.groups.size ? null : n.groups, n.name);
        tag();
        say();
      });
    d3fg.select(box).datum(data).call(chart);
    if (query()) chart.search(query());
    tag();
    say();
    box.dataset.processes = data.children.length;
    // A merged report's processes, each to zoom into: a small one may be too narrow to see beside a big one.
    picker.hidden = data.children.length < 2;
    picker.replaceChildren(el("option", { value: "" }, "all " + data.children.length + " processes"),
                           ...data.children.map((p, i) => el("option", { value: i }, p.name + " \u00b7 " + fmtBytes(p.bytes))));
  }
  const picker = el("select", { id: "flame-process", title: "zoom into one process" });
  search.before(picker);
  picker.addEventListener("change", () => {
    const top = d3fg.select(box).datum();
    chart.zoomTo(picker.value === "" ? top : top.children[Number(picker.value)]);
  });
  modeSelect.addEventListener("change", () => { emit("filterGroups", null); draw(); });
  hide.addEventListener("change", draw);
  search.addEventListener("input", () => {
    const q = query();
    if (q) chart.search(q); else chart.clear();
    tag();
    say();
  });
  // The chart's width in pixels: the page's main column (max-width 1400px,
  // 24px padding, a scrollbar), computed without asking for a layout while
  // the page is still being built.
  const width = () => Math.max(300, Math.min(window.innerWidth - 17, 1400) - 48 - 2);
  let drawnWidth = width();
  window.addEventListener("resize", () => {
    if (Math.abs(width() - drawnWidth) < 20) return;
    drawnWidth = width();
    draw();
  });
  draw();
}
