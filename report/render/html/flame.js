// Flame graph (an icicle: outermost frame on top) of memory by call stack:
// leaked, live at the peak, held by caching allocators, or PyTorch's live
// tensors by Python line. Search highlights frames, a click zooms into a frame
// (and filters the table to the groups under it), runtime frames can be hidden.
function renderFlame() {
  const box = $("#flame"), modeSelect = $("#flame-mode"), hide = $("#flame-hide"), search = $("#flame-search");
  const status = $("#flame-status");
  const sources = [];
  const add = (key, label, items) => { if (items.length) sources.push({ key, label, items }); };
  add("leaked", "leaked memory", counted.filter((g) => g.bytes && memoryKinds.includes(g.kind)).map((g) => ({ bytes: g.bytes, stack: g.stack, group: g })));
  add("peak", "live at the peak", ((R.timeline || {}).devices || []).flatMap((d) => (d.peak.groups || []).map((p) => ({ bytes: p.bytes, stack: p.stack }))));
  add("cached", "held by caching allocators", leaks.filter((g) => g.cached_by && g.bytes).map((g) => ({ bytes: g.bytes, stack: g.stack, group: g })));
  const tensorsOf = (v) => (v.devices || []).flatMap((d) => (d.live_tensors || []).filter((t) => (t.stack || []).length)
                                                     .map((t) => ({ bytes: t.bytes, stack: t.stack })));
  const view = pytorchViews.find((v) => tensorsOf(v).length);
  if (view) add("tensors", "live PyTorch tensors (" + view.label + ")", tensorsOf(view));
  if (!sources.length) {
    $("#flame-controls").hidden = true;
    box.replaceChildren(el("div", { class: "meta", style: "padding:6px" }, "No memory to draw."));
    return;
  }
  for (const s of sources) modeSelect.append(el("option", { value: s.key }, s.label));
  const rowHeight = 18, minPercent = 0.1, maxNodes = 4000;
  let root = null, zoom = null;
  const nodeClass = (n) => !n.frame ? "root" : isPython(n.frame) ? "py" : isRuntimeFrame(n.frame) ? "runtime" : isFrameworkFrame(n.frame) ? "framework" : "native";
  const palette = { native: ["#f6c28b", "#f4a259", "#ee8959", "#f9d79b", "#f2b880"], py: ["#9fd39a", "#b6e0a4", "#88c98a", "#c6e6b4"],
                    framework: ["#e9d3b4", "#e1c59e"], runtime: ["#c9d3e3", "#b9c6da"], root: ["#c9d3e3"] };
  function build() {
    const source = sources.find((s) => s.key === modeSelect.value) || sources[0];
    const top = { name: "all", bytes: 0, children: new Map(), groups: new Set(), frame: null, parent: null };
    for (const item of source.items) {
      let node = top;
      const step = (n) => { n.bytes += item.bytes; if (item.group) n.groups.add(item.group); };
      step(node);
      const frames = (item.stack || []).filter((f) => !hide.checked || !isRuntimeFrame(f)).reverse();
      for (const f of frames) {
        const name = frameName(f);
        let child = node.children.get(name);
        if (!child) { child = { name, bytes: 0, children: new Map(), groups: new Set(), frame: f, parent: node }; node.children.set(name, child); }
        step(child);
        node = child;
      }
    }
    root = zoom = top;
  }
  const matches = (n, q) => q && (n.name.toLowerCase().includes(q) || ((n.frame || {}).file || "").toLowerCase().includes(q));
  function draw() {
    const q = search.value.trim().toLowerCase();
    box.replaceChildren();
    let drawn = 0, depth = 0;
    const node = (n, x, w, d, extra) => {
      drawn++;
      depth = Math.max(depth, d + 1);
      const kind = nodeClass(n);
      const f = n.frame || {};
      const div = el("div", { class: "node " + kind + (extra ? " " + extra : "") + (matches(n, q) ? " match" : ""),
                              "data-name": n.name, "data-bytes": n.bytes,
                              title: n.name + "\n" + fmtBytes(n.bytes) + " (" + fmtPercent(n.bytes, root.bytes) + " of " + fmtBytes(root.bytes) + ")" +
                                     (f.file && !isPython(f) ? "\n" + f.file + ":" + f.line : "") + (f.module ? "\n" + moduleName(f) : "") +
                                     "\nclick to zoom" + (n.groups.size ? " and list its " + plural(n.groups.size, "group") + " in the table" : "") },
                         n.name + " " + fmtBytes(n.bytes));
      div.style.left = x + "%"; div.style.width = w + "%"; div.style.top = d * rowHeight + "px";
      const colors = palette[kind];
      div.style.background = colors[(n.name.length + d) % colors.length];
      div.addEventListener("click", () => {
        zoom = n;
        emit("filterGroups", n === root || !n.groups.size ? null : n.groups, n.name);
        draw();
      });
      box.append(div);
    };
    const chain = [];
    for (let n = zoom; n; n = n.parent) chain.unshift(n);
    chain.forEach((n, i) => node(n, 0, 100, i, n === zoom ? "zoomed" : "ancestor"));
    (function place(n, x, w, d) {
      let cx = x;
      for (const child of [...n.children.values()].sort((a, b) => b.bytes - a.bytes)) {
        const cw = w * child.bytes / n.bytes;
        if (cw < minPercent || drawn >= maxNodes) break;  // sorted: the rest are narrower
        node(child, cx, cw, d);
        place(child, cx, cw, d + 1);
        cx += cw;
      }
    })(zoom, 0, 100, chain.length);
    box.style.height = Math.max(depth, 1) * rowHeight + 2 + "px";
    // What the search matched, counted once where matches nest.
    let matched = 0;
    (function walk(n) { if (n !== root && matches(n, q)) { matched += n.bytes; return; } for (const c of n.children.values()) walk(c); })(root);
    status.textContent = (q ? "matched " + fmtBytes(matched) + " (" + fmtPercent(matched, root.bytes) + ")" : "") +
        (zoom !== root ? (q ? " \u00b7 " : "") + "zoomed into " + zoom.name + " \u2014 click the top row to zoom out" : "");
  }
  modeSelect.addEventListener("change", () => { build(); emit("filterGroups", null); draw(); });
  hide.addEventListener("change", () => { build(); draw(); });
  search.addEventListener("input", draw);
  build();
  draw();
}
