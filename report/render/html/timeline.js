// Memory over time, one lane per device (and process): kinds (or, switched,
// the biggest sites: kind and call stack) stacked over the time since its
// process started, each process on its own time range (reports of a merge may
// be taken minutes apart); the device's capacity; the peak marked and
// explained; out-of-memory errors, checkpoints and snapshots marked where they
// happened. Each axis has one unit, picked from its range, and round ticks;
// labels are placed where they overlap no other label or mark. Hover shows
// the values, a drag zooms a process's lanes, a double click zooms out, a
// table row chosen shows when its allocations were made.
function renderTimeline() {
  const charts = $("#timeline");
  const tl = R.timeline || { kinds: [], devices: [] };
  const ooms = R.oom_events || [];
  const lanes = tl.devices || [];
  const marks = tl.marks || [];
  const lanesOnDevice = (dev) => lanes.filter((d) => d.device === dev).length;
  const endOf = (d) => Math.max(...(d.points || []).map((p) => p[0]), d.peak.time_ns, 1);
  // Pids repeat across a job's hosts: a rank tells them apart.
  const ofLane = (d, x) => !merged || !x.pid || (x.pid === d.pid && !(x.rank >= 0 && d.rank >= 0 && x.rank !== d.rank));
  // A job of many ranks draws the lanes that tell (its odd ranks, each
  // story's first failing rank) and the first others up to 16; all when asked.
  const telling = (() => {
    if (lanes.length <= 16) return lanes;
    const wanted = new Set([...(JOB.odd_ranks || []), ...(JOB.stories || []).map((s) => (ooms[s.first] || {}).rank)]);
    const pick = lanes.filter((d) => wanted.has(d.rank)).slice(0, 16);
    for (const d of lanes) if (pick.length < 16 && !pick.includes(d)) pick.push(d);
    return pick;
  })();
  let everyLane = false;
  // Each process's lanes span from its own start to its last event.
  const startOf = processStart;
  const fullSpanOf = (pid) => {
    const mine = lanes.filter((d) => d.pid === pid);
    const from = startOf(pid);
    return [from, Math.max(from + 1, merged ? 0 : R.duration_ns || 0, ...mine.map(endOf),
                           ...ooms.filter((e) => mine.some((d) => ofLane(d, e))).map((e) => e.time_ns),
                           ...marks.filter((m) => mine.some((d) => ofLane(d, m))).map((m) => m.time_ns))];
  };
  const spans = new Map();  // pid -> the zoomed span of its lanes
  const spanOf = (pid) => spans.get(pid) || fullSpanOf(pid);
  let highlight = null;  // the chosen group: device, pid and when its allocations were made
  const by = $("#timeline-by");
  if (lanes.some((d) => (d.sites || []).length)) $("#timeline-controls").hidden = false;
  by.addEventListener("change", () => drawAll());
  const siteColors = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f",
                      "#86bcb6", "#d37295", "#8cd17d"];
  // The areas of a lane: [{label, color, attrs, value(i)}], bottom first.
  function seriesOf(d) {
    const pts = d.points || [];
    const total = (p) => p.slice(2).reduce((a, b) => a + b, 0);
    if (by.value !== "site" || !(d.sites || []).length) {
      return tl.kinds.map((kind, k) => ({ label: kind, color: kindColors[kind] || "#888", attrs: { "data-kind": kind }, value: (i) => pts[i][2 + k] }))
        .filter((s) => pts.some((p, i) => s.value(i) > 0));
    }
    // Each point lists its biggest sites; what it does not list is "other sites".
    const at = pts.map((p, i) => new Map(((d.site_points || [])[i] || []).filter(([s]) => s < d.sites.length)));
    const order = d.sites.map((s, n) => n).filter((n) => at.some((m) => m.has(n)))
      .sort((a, b) => d.sites[b].peak_bytes - d.sites[a].peak_bytes);
    const out = order.map((n, rank) => ({ label: groupLabel(d.sites[n]),
                                          color: siteColors[rank % siteColors.length], attrs: { "data-site": n }, value: (i) => at[i].get(n) || 0 }));
    const listed = (i) => [...at[i].values()].reduce((a, b) => a + b, 0);
    const other = { label: "other sites", color: "#bab0ac", attrs: { "data-site": "other" }, value: (i) => Math.max(0, total(pts[i]) - listed(i)) };
    if (pts.some((p, i) => other.value(i) > 0)) out.push(other);
    return out;
  }

  function drawLane(d, holder) {
    const W = 900, H = 230, L = 70, B = 28, T = 14, Rm = 10;
    const pts = d.points || [];
    // OOMs of this lane: its device, and in a merged report its process.
    const laneOoms = ooms.filter((e) => e.device === d.device && (e.pid ? ofLane(d, e) : lanesOnDevice(d.device) === 1));
    const capacity = Math.max(0, ...laneOoms.filter((e) => e.device_info).map((e) => e.total_bytes));
    const yAxis = bytesAxis(Math.max(d.peak.bytes, capacity, ...laneOoms.map((e) => e.tracked_bytes + e.request_bytes), 1), 4);
    const ymax = yAxis.ticks[yAxis.ticks.length - 1];
    const fullSpan = fullSpanOf(d.pid);
    const [t0, t1] = spanOf(d.pid);
    const origin = startOf(d.pid);  // the axis reads the time since this process started
    const since = (t) => fmtTime(t - origin);
    const X = (t) => L + (W - L - Rm) * (Math.min(Math.max(t, t0), t1) - t0) / (t1 - t0);
    const Y = (b) => H - B - (H - B - T) * b / ymax;
    const svg = svgEl(null, "svg", { viewBox: "0 0 " + W + " " + H, class: "chart", "data-device": d.device, "data-pid": d.pid || 0 });
    const add = (tag, attrs, text) => svgEl(svg, tag, attrs, text);
    const titled = (node, text) => { svgEl(node, "title", {}, text); return node; };
    // Labels: each where it overlaps no label or mark placed before it.
    const placed = [];
    const textWidth = (text) => { measure.font = "11px system-ui, sans-serif"; return measure.measureText(text).width; };
    const boxOf = (x, y, anchor, w) => { const x0 = anchor === "end" ? x - w : anchor === "middle" ? x - w / 2 : x; return [x0, y - 10, x0 + w, y + 3]; };
    const clear = (b, inside) => (!inside || (b[0] >= inside[0] && b[2] <= inside[2] && b[1] >= inside[1] && b[3] <= inside[3])) &&
                                 placed.every((o) => b[2] + 4 <= o[0] || b[0] >= o[2] + 4 || b[3] + 2 <= o[1] || b[1] >= o[3] + 2);
    const plotArea = [L, T, W - Rm, H - B];
    // Places `text` at the first free candidate [x, y, anchor]; none free: left out unless `always`.
    const label = (text, candidates, attrs, always) => {
      const w = textWidth(text);
      let at = candidates.find(([x, y, anchor]) => clear(boxOf(x, y, anchor, w), plotArea));
      if (!at && !always) return null;
      at = at || candidates[0];
      placed.push(boxOf(at[0], at[1], at[2], w));
      return add("text", { x: at[0], y: at[1], "text-anchor": at[2] || "start", ...attrs }, text);
    };
    const obstacle = (x0, y0, x1, y1) => placed.push([x0, y0, x1, y1]);
    yAxis.ticks.forEach((b, i) => {  // grid: bytes, one unit
      add("line", { x1: L, y1: Y(b), x2: W - Rm, y2: Y(b), stroke: i ? "#eee" : "#999" });
      add("text", { x: L - 6, y: Y(b) + 4, "text-anchor": "end", class: "axis y-tick" }, yAxis.label(b));
    });
    const xAxis = timeAxis(t0 - origin, t1 - origin, 6);
    for (const v of xAxis.ticks) {  // grid: time since the process started, one unit
      const x = X(v + origin), text = xAxis.label(v), w = textWidth(text);
      add("line", { x1: x, y1: T, x2: x, y2: H - B, stroke: "#f2f2f2" });
      const lx = Math.min(Math.max(x, w / 2 + 1), W - w / 2 - 1);
      add("text", { x: lx, y: H - 8, "text-anchor": "middle", class: "axis x-tick" }, text);
    }
    if (highlight && highlight.device === d.device && ofLane(d, highlight)) {
      const xa = X(highlight.from), xb = Math.max(X(highlight.to), xa + 3);
      add("rect", { x: xa, y: T, width: xb - xa, height: H - B - T, fill: "#2f5fb3", "fill-opacity": 0.18, class: "group-band",
                    "data-highlight": highlight.label });
    }
    // Stacked steps: a value holds until the next point.
    const shown = seriesOf(d);
    const below = pts.map(() => 0);
    for (const series of shown) {
      const top = pts.map((p, i) => below[i] + series.value(i));
      let up = "", down = "";
      pts.forEach((p, i) => {
        const xa = X(p[0]), xb = X(i + 1 < pts.length ? pts[i + 1][0] : t1);
        up += (i ? " L" : "M") + xa.toFixed(1) + " " + Y(top[i]).toFixed(1) + " L" + xb.toFixed(1) + " " + Y(top[i]).toFixed(1);
        down = " L" + xb.toFixed(1) + " " + Y(below[i]).toFixed(1) + " L" + xa.toFixed(1) + " " + Y(below[i]).toFixed(1) + down;
      });
      svgEl(add("path", { d: up + down + " Z", fill: series.color, "fill-opacity": 0.75, stroke: series.color, ...series.attrs }),
            "title", {}, series.label);
      top.forEach((v, i) => { below[i] = v; });
    }
    if (pts.length) {  // the highest total inside each point's span
      add("path", { d: pts.map((p, i) => (i ? "L" : "M") + X(p[0]).toFixed(1) + " " + Y(p[1]).toFixed(1)).join(" "),
                    fill: "none", stroke: "#333", "stroke-width": 1, "stroke-dasharray": "2 2", class: "total-line" });
    }
    const showCapacity = capacity && d.peak.bytes * 10 >= capacity;
    if (showCapacity)
      add("line", { x1: L, y1: Y(capacity), x2: W - Rm, y2: Y(capacity), stroke: badColor, "stroke-dasharray": "6 4", class: "capacity" });
    // Checkpoints, snapshots and OOMs: lines with their names, kept above the
    // hover area so that their own titles and clicks reach them.
    const raised = [];
    for (const m of marks.filter((m) => ofLane(d, m) && m.time_ns >= t0 && m.time_ns <= t1)) {
      const x = X(m.time_ns);
      raised.push(titled(add("line", { x1: x, y1: T, x2: x, y2: H - B, stroke: "#6b7a90", "stroke-dasharray": "3 3", "stroke-width": 2,
                                       "data-mark": m.type, class: "mark" }),
             m.type + (m.name ? " \u201c" + m.name + "\u201d" : "") + " at " + since(m.time_ns)));
    }
    const groups = (d.peak.groups || []).map((g) => fmtBytes(g.bytes) + " \u00d7" + g.count + " " + groupLabel(g)).join("\n");
    const px = X(d.peak.time_ns), py = Y(d.peak.bytes);
    const peakShown = d.peak.time_ns >= t0 && d.peak.time_ns <= t1;
    if (peakShown)
      titled(add("circle", { cx: px, cy: py, r: 5, fill: badColor, id: "peak-marker-" + d.device + "-" + (d.pid || 0), class: "peak-marker" }),
             "peak " + fmtBytes(d.peak.bytes) + " at " + since(d.peak.time_ns) + (groups ? "\nlive at the peak:\n" + groups : ""));
    // The marks and the peak's dot are obstacles for the labels; the peak's label first, then the OOMs', then the capacity's.
    const shownOoms = laneOoms.filter((e) => e.time_ns >= t0 && e.time_ns <= t1);
    for (const e of shownOoms) obstacle(X(e.time_ns) - 3, T, X(e.time_ns) + 3, H - B);
    if (peakShown) obstacle(px - 6, py - 6, px + 6, py + 6);
    const rows = (x, anchor) => { const out = []; for (let y = T + 12; y <= H - B - 4; y += 14) out.push([x, y, anchor]); return out; };
    const near = (x, y) => [[x + 8, y - 6], [x - 8, y - 6, "end"], [x + 8, y + 16], [x - 8, y + 16, "end"],
                            ...rows(x + 8).sort((a, b) => Math.abs(a[1] - y) - Math.abs(b[1] - y)),
                            ...rows(x - 8, "end").sort((a, b) => Math.abs(a[1] - y) - Math.abs(b[1] - y))];
    if (peakShown) label("peak " + fmtBytes(d.peak.bytes), near(px, py), { fill: badColor, class: "peak-label" }, true);
    shownOoms.forEach((e) => {
      const x = X(e.time_ns);
      label("OOM", [[x + 8, H - B - 4], [x - 8, H - B - 4, "end"], ...rows(x + 8).reverse(), ...rows(x - 8, "end").reverse()],
            { fill: badColor, class: "axis oom-label" });
    });
    if (showCapacity)
      label("device capacity " + fmtBytes(capacity), [Y(capacity) - 4, Y(capacity) + 14].flatMap((y) => {  // along its line, above then below
        const out = [];
        for (let x = L + 4; x < W - Rm; x += 20) out.push([x, y]);
        return out;
      }), { fill: badColor, class: "axis capacity-label" });
    shownOoms.forEach((e) => {
      const x = X(e.time_ns);
      const n = ooms.indexOf(e);
      const mark = titled(add("line", { x1: x, y1: T, x2: x, y2: H - B, stroke: badColor, "stroke-width": 3, "data-mark": "oom",
                                        "data-oom": n, class: "oom-mark" }),
                          "out of memory: " + e.api + " asked for " + fmtBytes(e.request_bytes) + "\n" +
                              (e.diagnosis || []).map((x, i) => (i + 1) + ". " + x.message).join("\n") + "\nclick for the diagnosis");
      mark.addEventListener("click", () => emit("showOom", n));
      raised.push(mark);
    });
    // Hover: the values at the time under the pointer; drag: zoom.
    const cursor = add("line", { x1: 0, y1: T, x2: 0, y2: H - B, stroke: "#555", visibility: "hidden" });
    const band = add("rect", { x: 0, y: T, width: 0, height: H - B - T, fill: "#4e79a7", "fill-opacity": 0.15, visibility: "hidden" });
    const hit = add("rect", { x: L, y: T, width: W - L - Rm, height: H - B - T, fill: "transparent", class: "hover-area" });
    for (const node of raised) svg.append(node);
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
      const lines = [since(t) + " \u00b7 device " + d.device + (d.pid ? " \u00b7 pid " + d.pid : "")];
      if (i >= 0) {
        for (const series of shown.slice().reverse()) if (series.value(i) > 0) lines.push(series.label + ": " + fmtBytes(series.value(i)));
        lines.push("highest in span: " + fmtBytes(pts[i][1]));
      } else {
        lines.push("nothing live yet");
      }
      showTip(ev, lines);
    });
    hit.addEventListener("mouseleave", () => { hideTip(); cursor.setAttribute("visibility", "hidden"); });
    hit.addEventListener("mousedown", (ev) => { dragFrom = timeAt(ev).x; band.setAttribute("visibility", "visible"); ev.preventDefault(); });
    hit.addEventListener("mouseup", (ev) => {
      const from = dragFrom;
      dragFrom = null;
      band.setAttribute("visibility", "hidden");
      const to = timeAt(ev).x;
      if (from === null || Math.abs(to - from) < 5) return;
      if (ev.shiftKey) {  // shift-drag pans: the time under the pointer follows it
        pan(d.pid, (from - to) * (t1 - t0) / (W - L - Rm));
        return;
      }
      const ta = t0 + (t1 - t0) * (Math.min(from, to) - L) / (W - L - Rm), tb = t0 + (t1 - t0) * (Math.max(from, to) - L) / (W - L - Rm);
      spans.set(d.pid, [Math.max(fullSpan[0], ta), Math.min(fullSpan[1], Math.max(tb, ta + 1))]);
      drawAll();
    });
    svg.addEventListener("dblclick", () => { spans.delete(d.pid); drawAll(); });
    const title = el("h3", { class: "lane-title" }, deviceName(d.device) + (d.rank >= 0 ? " \u00b7 rank " + d.rank : "") + (d.pid ? " \u00b7 pid " + d.pid : "") + " \u2014 peak " +
                     fmtBytes(d.peak.bytes) + " at " + since(d.peak.time_ns) + " after process start" +
                     (merged && origin ? " (which started " + fmtTime(origin) + " after the first process)" : ""));
    if (spans.has(d.pid)) {  // this process's lanes are zoomed
      const panBy = (sign, text, cls) => {
        const b = el("button", { type: "button", class: cls, title: "pan by half the span (or shift-drag a chart)" }, text);
        b.addEventListener("click", () => pan(d.pid, sign * (t1 - t0) / 2));
        return b;
      };
      const banner = el("div", { class: "meta zoomed" }, "zoomed to " + since(t0) + " \u2013 " + since(t1) + " (double-click to zoom out) ");
      banner.append(panBy(-1, "\u2190 earlier", "pan-earlier"), " ", panBy(1, "later \u2192", "pan-later"));
      holder.append(banner);
    }
    const legend = legendEl([...shown.map((series) => ({ color: series.color, text: series.label })),
                             ...(laneOoms.length ? [{ color: badColor, text: "out of memory" }] : []),
                             ...(marks.some((m) => ofLane(d, m)) ? [{ color: "#6b7a90", text: "checkpoint / snapshot", dashed: true }] : [])]);
    holder.append(title, svg, legend);
    // The peak explained: what was live at it.
    if ((d.peak.groups || []).length) {
      // The report lists the largest groups live at the peak; the list says what it leaves out.
      const list = el("ul", { class: "peak-groups", "data-device": d.device });
      const top = d.peak.groups.slice(0, 5);
      const listed = top.reduce((a, g) => a + g.bytes, 0);
      const rest = d.peak.bytes - listed;
      list.append(el("li", { class: "meta" }, "live at the peak (" + fmtBytes(d.peak.bytes) + ")" +
          (rest > 0 ? ": the " + (top.length === 1 ? "largest group" : top.length + " largest groups") + " shown, " + fmtBytes(listed) +
                      "; the other " + fmtBytes(rest) + " was in " + (d.peak.groups.length > top.length ? "smaller groups" : "allocations too small to list")
                    : "") + ":"));
      for (const g of top)
        list.append(el("li", {}, fmtBytes(g.bytes) + " (" + fmtPercent(g.bytes, d.peak.bytes) + ") \u00d7" + g.count + " " + groupLabel(g)));
      holder.append(list);
    }
  }
  // Moves a process's zoomed span by `dt` (negative: earlier), kept inside its run.
  function pan(pid, dt) {
    const full = fullSpanOf(pid), span = spanOf(pid);
    const width = span[1] - span[0];
    const start = Math.min(Math.max(full[0], span[0] + dt), full[1] - width);
    spans.set(pid, [start, start + width]);
    drawAll();
  }
  const measure = document.createElement("canvas").getContext("2d");
  function drawAll() {
    charts.replaceChildren();
    if (highlight)
      charts.append(el("div", { class: "meta highlighted" }, "shaded: when " + highlight.label + " was allocated (" + fmtTime(highlight.from - startOf(highlight.pid)) +
        (highlight.to > highlight.from ? " \u2013 " + fmtTime(highlight.to - startOf(highlight.pid)) : "") + " after its process started)"));
    for (const d of everyLane ? lanes : telling) drawLane(d, charts);
    if (!everyLane && telling.length < lanes.length) {
      const all = el("button", {}, "draw all " + lanes.length + " lanes");
      all.addEventListener("click", () => { everyLane = true; drawAll(); });
      const note = el("div", { class: "meta" }, (lanes.length - telling.length) + " more lanes of the job's ranks not drawn ");
      note.append(all);
      charts.append(note);
    }
    if (!lanes.length) $("#timeline-section").hidden = true;
  }
  links.selectGroup.push((g) => {
    const t = groupTimes(g);
    highlight = t ? { device: g.device, pid: g.pid, from: t[0], to: t[1], label: g.kind + " from " + g.api + " in " + where(g) } : null;
    drawAll();
  });
  drawAll();
}
