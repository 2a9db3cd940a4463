// Leaked allocations over time, one device (and process) at a time, in the
// manner of PyTorch's memory_viz: each allocation the report lists is a band
// from when it was made to the end of the run, stacked in the order they were
// made, so the top edge is the leaked memory growing. Hovering a band shows
// the allocation and its group's stack; a click chooses the group in the table.
// At most maxBands bands, the largest allocations, keep a page of thousands of
// groups quick to open.
function renderAllocations() {
  const section = $("#allocations-section");
  // Lanes: device and process; the allocations the page lists of the groups that leaked memory there.
  const lanes = new Map();
  for (const g of counted) {
    if (!memoryKinds.includes(g.kind) || !g.bytes) continue;
    const key = g.device + ":" + (merged ? g.pid : 0);
    if (!lanes.has(key)) lanes.set(key, { device: g.device, pid: merged ? g.pid : 0, groups: [], allocations: [], bytes: 0, count: 0 });
    const lane = lanes.get(key);
    lane.groups.push(g);
    lane.bytes += g.bytes;
    lane.count += g.count;
    for (const a of g.allocations || []) if (a.time_ns !== undefined && a.bytes) lane.allocations.push({ a, g });
  }
  const choices = [...lanes.values()].filter((l) => l.allocations.length).sort((x, y) => y.bytes - x.bytes);
  if (!choices.length) { section.hidden = true; return; }
  const select = $("#allocations-device");
  choices.forEach((l, i) => select.append(el("option", { value: i }, deviceName(l.device) + (l.pid ? " \u00b7 pid " + l.pid : "") + " \u00b7 " +
                                                                       fmtBytes(l.bytes) + " leaked")));
  const box = $("#allocations");
  const colors = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#86bcb6"];
  const maxBands = 4000;
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = "11px system-ui, sans-serif";
  function draw() {
    const lane = choices[Number(select.value) || 0];
    const W = 900, H = 260, L = 70, B = 28, T = 14, Rm = 10;
    let items = lane.allocations;
    if (items.length > maxBands) items = items.slice().sort((x, y) => y.a.bytes - x.a.bytes).slice(0, maxBands);
    items = items.slice().sort((x, y) => x.a.time_ns - y.a.time_ns || (x.a.sequence || 0) - (y.a.sequence || 0));
    const origin = processStart(lane.pid);
    const lastEvent = Math.max(...((R.timeline || {}).devices || []).filter((d) => d.device === lane.device && (!merged || d.pid === lane.pid))
                                   .flatMap((d) => (d.points || []).map((p) => p[0])), ...items.map((x) => x.a.time_ns));
    const ofLane = (x) => (x.device === undefined || x.device === lane.device) && (!merged || !x.pid || x.pid === lane.pid);
    const end = Math.max(lastEvent, merged ? 0 : R.duration_ns || 0, origin + 1, ...(R.oom_events || []).filter(ofLane).map((e) => e.time_ns),
                         ...((R.timeline || {}).marks || []).filter(ofLane).map((m) => m.time_ns));
    const drawn = items.reduce((s, x) => s + x.a.bytes, 0);
    const yAxis = bytesAxis(Math.max(drawn, 1), 4);
    const ymax = yAxis.ticks[yAxis.ticks.length - 1];
    const xAxis = timeAxis(0, end - origin, 6);
    const X = (t) => L + (W - L - Rm) * (t - origin) / (end - origin);
    const Y = (b) => H - B - (H - B - T) * b / ymax;
    const svg = svgEl(null, "svg", { viewBox: "0 0 " + W + " " + H, class: "chart alloc-chart", "data-device": lane.device, "data-pid": lane.pid });
    yAxis.ticks.forEach((b, i) => {
      svgEl(svg, "line", { x1: L, y1: Y(b), x2: W - Rm, y2: Y(b), stroke: i ? "#eee" : "#999" });
      svgEl(svg, "text", { x: L - 6, y: Y(b) + 4, "text-anchor": "end", class: "axis y-tick" }, yAxis.label(b));
    });
    for (const v of xAxis.ticks) {
      const x = X(v + origin), text = xAxis.label(v), w = measure.measureText(text).width;
      svgEl(svg, "line", { x1: x, y1: T, x2: x, y2: H - B, stroke: "#f2f2f2" });
      svgEl(svg, "text", { x: Math.min(Math.max(x, w / 2 + 1), W - w / 2 - 1), y: H - 8, "text-anchor": "middle", class: "axis x-tick" }, text);
    }
    const groupIndex = new Map(lane.groups.map((g, i) => [g, i]));
    // The bands as one piece of markup (thousands of them), and one listener for all.
    let below = 0, markup = "";
    items.forEach(({ a, g }, i) => {
      const x = X(a.time_ns), top = below + a.bytes;
      markup += '<rect class="allocation" data-i="' + i + '" data-bytes="' + a.bytes + '" x="' + x.toFixed(2) + '" y="' + Y(top).toFixed(2) +
                '" width="' + Math.max(W - Rm - x, 1).toFixed(2) + '" height="' + Math.max(Y(below) - Y(top), 0.5).toFixed(2) + '" fill="' +
                colors[groupIndex.get(g) % colors.length] + '"/>';
      below = top;
    });
    const bands = svgEl(svg, "g", { class: "allocations", "fill-opacity": 0.8, stroke: "#fff", "stroke-width": 0.3 });
    bands.innerHTML = markup;
    const itemOf = (ev) => ev.target.dataset && ev.target.dataset.i !== undefined ? items[Number(ev.target.dataset.i)] : null;
    let lit = null;
    bands.addEventListener("mousemove", (ev) => {
      const item = itemOf(ev);
      if (!item) return;
      if (lit !== ev.target) { if (lit) lit.removeAttribute("fill-opacity"); lit = ev.target; lit.setAttribute("fill-opacity", 1); }
      const { a, g } = item;
      showTip(ev, [fmtBytes(a.bytes) + " at " + a.address + ", made " + fmtTime(a.time_ns - origin) + " after the process started" +
                   (a.thread ? " by thread " + a.thread : ""),
                   groupLabel(g) + " (" + plural(g.count, "allocation") + ", " + fmtBytes(g.bytes) + ")",
                   ...(g.stack || []).filter((f) => !isRuntimeFrame(f)).slice(0, 8).map((f) => "  " + frameWhere(f) + (isPython(f) ? "  [Python]" : ""))]);
    });
    bands.addEventListener("mouseleave", () => { if (lit) lit.removeAttribute("fill-opacity"); lit = null; hideTip(); });
    bands.addEventListener("click", (ev) => {
      const item = itemOf(ev);
      const row = item && document.querySelector("#leak-table tbody tr[data-group='" + leaks.indexOf(item.g) + "']");
      if (row) { row.click(); row.scrollIntoView({ block: "center" }); }
    });
    const listed = items.length;
    const note = el("div", { class: "meta alloc-note" }, plural(listed, "allocation") + " drawn" +
        (lane.allocations.length > listed ? " (the " + maxBands + " largest of the " + lane.allocations.length + " the page lists)" : "") +
        ", " + fmtBytes(drawn) +
        (listed < lane.count ? " of the " + lane.count + " leaked here (" + fmtBytes(lane.bytes) + "): the page lists up to " +
                               Math.max(...lane.groups.map((g) => (g.allocations || []).length)) + " per group" : "") +
        "; each band runs from when its allocation was made to the end of the run.");
    box.replaceChildren(svg, legendEl(lane.groups.slice(0, colors.length).map((g, i) => ({ color: colors[i], text: groupLabel(g) }))), note);
  }
  select.addEventListener("change", draw);
  draw();
}
