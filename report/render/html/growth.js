// Growth by site: every site whose history the tracker kept (the timeline's
// `growth`, with the lines of the frameworks' views), steady ones first, each with its history as a line (the lowest
// live bytes within each span) and the words of the text report. Hovering a
// line shows the stack.
function renderGrowth() {
  const section = $("#growth-section");
  const rows = [];
  for (const d of (R.timeline || {}).devices || [])
    for (const g of d.growth || []) rows.push({ d, g });
  if (!rows.length) { section.hidden = true; return; }
  const rise = (g) => Math.max(0, (g.level || 0) - (g.since_bytes || 0));
  const end = (g) => (g.history_ns || 0) + (g.history || []).length * (g.interval_ns || 0);
  const perMinute = (g) => { const ns = end(g) - (g.since_ns || 0); return ns > 0 ? rise(g) * 60e9 / ns : 0; };
  rows.sort((a, b) => (b.g.steady ? 1 : 0) - (a.g.steady ? 1 : 0) || rise(b.g) - rise(a.g) || b.g.bytes - a.g.bytes);
  const box = $("#growth");
  const table = el("table", { class: "growth-table" });
  const head = el("tr");
  for (const h of ["device", "live", "history", "growth", "site"]) head.append(el("th", {}, h));
  table.append(head);
  for (const { d, g } of rows.slice(0, 64)) {
    const tr = el("tr", { class: g.steady ? "growing" : "" , "data-steady": g.steady ? "1" : "0" });
    tr.append(el("td", {}, deviceName(d.device) + (merged && d.pid ? " \u00b7 pid " + d.pid : "")));
    tr.append(el("td", {}, fmtBytes(g.bytes || 0)));
    const W = 240, H = 36, hist = g.history || [];
    const svg = svgEl(null, "svg", { viewBox: "0 0 " + W + " " + H, class: "chart growth-line", width: W, height: H });
    const hi = Math.max(1, ...hist), lo = Math.min(...hist, hi);
    const pts = hist.map((v, i) => (hist.length > 1 ? i * (W - 2) / (hist.length - 1) + 1 : W / 2) + "," +
                                   (H - 2 - (H - 4) * (hi === lo ? 0 : (v - lo) / (hi - lo))));
    svgEl(svg, "polyline", { points: pts.join(" "), fill: "none", stroke: g.steady ? badColor : "#4e79a7", "stroke-width": 1.5 });
    const cell = el("td");
    cell.append(svg);
    tr.append(cell);
    const perRequests = g.rise_requests ? "+" + fmtBytes(rise(g) * 1000 / g.rise_requests) + " per 1,000 requests, " : "";
    const words = g.steady ? "grew steadily for " + fmtTime(end(g) - g.since_ns) + ", +" + fmtBytes(rise(g)) + " (" + perRequests + "+" +
                             fmtBytes(perMinute(g)) + " per minute), never fell" : "flat or falling";
    tr.append(el("td", {}, words + (g.fails_gate ? " \u00b7 counted by the gate" : "")));
    tr.append(el("td", {}, g.view ? historyLabel(g) : (g.api ? g.api + " at " : "") + (g.where || "")));
    tr.addEventListener("mousemove", (ev) => showTip(ev, (g.stack || []).slice(0, 14).map(frameName)));
    tr.addEventListener("mouseleave", hideTip);
    table.append(tr);
  }
  box.append(table);
}
