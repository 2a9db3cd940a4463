// Leaked allocations over time, one device (and process) at a time, in the
// manner of PyTorch's memory_viz: each allocation the report lists is a band
// from when it was made to the end of the run, stacked in the order they were
// made, so the top edge is the leaked memory growing. Hovering a band shows
// the allocation and its group's stack; a click chooses the group in the table.
// At most maxBands bands, the largest allocations, keep a page of thousands of
// groups quick to open. Over the bands, the growth histories the tracker kept
// for the lane's device (the timeline's `growth`: CUDA sites and the lines of
// PyTorch's, JAX's and CuPy's views, freed and live alike, steady ones
// first) are drawn as lines on the same axes: the lowest each held within
// each span of its history. A device with histories and no leak gets the
// chart too.
function renderAllocations() {
  const section = $("#allocations-section");
  const maxHistories = 8;  // growth histories drawn per lane, steady ones first
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
  for (const d of (R.timeline || {}).devices || []) {
    const histories = (d.growth || []).filter((h) => (h.history || []).length > 1 && Math.max(...h.history) > 0);
    if (!histories.length) continue;
    const key = d.device + ":" + (merged ? d.pid : 0);
    if (!lanes.has(key)) lanes.set(key, { device: d.device, pid: merged ? d.pid : 0, groups: [], allocations: [], bytes: 0, count: 0 });
    histories.sort((a, b) => (b.steady ? 1 : 0) - (a.steady ? 1 : 0) || b.bytes - a.bytes);
    lanes.get(key).histories = histories.slice(0, maxHistories);
  }
  const choices = [...lanes.values()].filter((l) => l.allocations.length || (l.histories || []).length)
                                     .sort((x, y) => y.bytes - x.bytes || (y.histories || []).length - (x.histories || []).length);
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
    const histories = lane.histories || [];
    const historyEnd = (h) => h.history_ns + h.history.length * h.interval_ns;
    const W = 900, H = 260, L = 70, B = 28, T = 14, Rm = 10;
    let items = lane.allocations;
    if (items.length > maxBands) items = items.slice().sort((x, y) => y.a.bytes - x.a.bytes).slice(0, maxBands);
    items = items.slice().sort((x, y) => x.a.time_ns - y.a.time_ns || (x.a.sequence || 0) - (y.a.sequence || 0));
    const origin = processStart(lane.pid);
    const lastEvent = Math.max(...((R.timeline || {}).devices || []).filter((d) => d.device === lane.device && (!merged || d.pid === lane.pid))
                                   .flatMap((d) => (d.points || []).map((p) => p[0])), ...items.map((x) => x.a.time_ns));
    const ofLane = (x) => (x.device === undefined || x.device === lane.device) && (!merged || !x.pid || x.pid === lane.pid);
    const end = Math.max(lastEvent, merged ? 0 : R.duration_ns || 0, origin + 1, ...histories.map(historyEnd), ...(R.oom_events || []).filter(ofLane).map((e) => e.time_ns),
                         ...((R.timeline || {}).marks || []).filter(ofLane).map((m) => m.time_ns));
    const drawn = items.reduce((s, x) => s + x.a.bytes, 0);
    const highest = Math.max(drawn, 1, ...histories.map((h) => Math.max(...h.history, h.bytes || 0)));
    const yAxis = bytesAxis(highest, 4);
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
    // Each history as steps: the lowest live bytes of each span, from its start to its end.
    const lines = svgEl(svg, "g", { class: "growth-histories", fill: "none", "stroke-width": 1.6 });
    const lineColors = ["#d62728", "#9467bd", "#2ca02c", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];
    histories.forEach((h, i) => {
      let d = "";
      h.history.forEach((v, j) => {
        const x0 = X(h.history_ns + j * h.interval_ns), x1 = X(h.history_ns + (j + 1) * h.interval_ns);
        d += (j ? "L" : "M") + x0.toFixed(2) + "," + Y(v).toFixed(2) + "L" + x1.toFixed(2) + "," + Y(v).toFixed(2);
      });
      const path = svgEl(lines, "path", { d, stroke: lineColors[i % lineColors.length], class: "growth-history",
                                          "data-steady": h.steady ? "1" : "0", "data-view": h.view || "site",
                                          "stroke-dasharray": h.steady ? "" : "4 3" });
      path.addEventListener("mousemove", (ev) => showTip(ev, [historyLabel(h) + ": " + fmtBytes(h.bytes || 0) + " live, " +
                                                             (h.steady ? "grew steadily" : "flat or falling"),
                                                             ...(h.stack || []).slice(0, 8).map((f) => "  " + frameWhere(f))]));
      path.addEventListener("mouseleave", hideTip);
    });
    const listed = items.length;
    const note = el("div", { class: "meta alloc-note" }, plural(listed, "allocation") + " drawn" +
        (lane.allocations.length > listed ? " (the " + maxBands + " largest of the " + lane.allocations.length + " the page lists)" : "") +
        ", " + fmtBytes(drawn) +
        (listed < lane.count ? " of the " + lane.count + " leaked here (" + fmtBytes(lane.bytes) + "): the page lists up to " +
                               Math.max(...lane.groups.map((g) => (g.allocations || []).length)) + " per group" : "") +
        "; each band runs from when its allocation was made to the end of the run.");
    const historyNote = histories.length ? el("div", { class: "meta alloc-note" }, (histories.length === 1 ? "1 growth history" : histories.length + " growth histories") +
        " drawn as lines (solid: grew steadily; dashed: flat or falling), freed and live memory alike: the lowest each site or line held within each span.") : "";
    box.replaceChildren(svg, legendEl([...lane.groups.slice(0, colors.length).map((g, i) => ({ color: colors[i], text: groupLabel(g) })),
                                       ...histories.map((h, i) => ({ color: lineColors[i % lineColors.length], text: historyLabel(h) }))]),
                        items.length ? note : "", historyNote);
  }
  select.addEventListener("change", draw);
  draw();
}

// A growth history's name: the view's line, or the site's API and place.
function historyLabel(h) {
  const view = { pytorch: "PyTorch's live tensors", jax: "JAX's live arrays", cupy: "CuPy's pool in use" }[h.view];
  return (view || h.api || "site") + (h.where ? " at " + h.where : "");
}
