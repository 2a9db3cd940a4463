// The HTML report in Debian's Chromium, driven by playwright-core:
//   node html_report.test.mjs OUT MERGED.json PYTORCH.json
// OUT holds report.html (MERGED.json rendered) and pytorch.html (a real H100
// report of a PyTorch program whose cache fragmented), segments.html,
// norank.html (a merge of processes with no rank) and job.html (a job's
// ranks). Checks every view of the
// pages: numbers, sorting, filtering, stacks, the flame graph's trees per
// process, modes, tooltips, search, zoom and frame hiding, the timeline's
// axes (one unit, round steps), label overlaps, per-process ranges, hover,
// zoom and marks, the links between views, sections and columns shown only
// with content, the OOM section and the PyTorch segment map. Writes
// report.png and pytorch.png (full pages) into OUT.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [out, mergedJson, pytorchJson] = process.argv.slice(2);
let passed = 0;
const failures = [];
const check = (ok, what) => { if (ok) passed++; else failures.push(what); };
const fmt = (n) => { const u = ["B", "KiB", "MiB", "GiB", "TiB"]; let i = 0, v = n; while (v >= 1024 && i < 4) { v /= 1024; i++; } return i ? v.toFixed(1) + " " + u[i] : n + " B"; };
const memoryKinds = ["device", "pinned", "registered", "managed", "async", "vmm", "array"];
const isCuda = (f) => /^(cu[a-z]*|nccl)[A-Z]/.test(f.function || "") || /(^|\/)lib(cu|nccl|nv)/.test(f.module || "");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});

// Opens a page and checks it loads alone: no errors, no network.
async function open(html) {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  const requests = [];
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) requests.push(r.url()); });
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector("body[data-ready='1']", { timeout: 10000 });
  check(errors.length === 0, `${html}: no errors in the page: ${errors.join("; ")}`);
  check(requests.length === 0, `${html}: no network requests: ${requests.join(", ")}`);
  check(await page.locator(".view-error").count() === 0, `${html}: every view drew`);
  return page;
}

// "1.5 ms" -> 1500000; "200 MiB" -> bytes.
const scales = { ns: 1, us: 1e3, ms: 1e6, s: 1e9, min: 60e9, B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4 };
const toNs = (text) => { const [v, u] = text.split(" "); return Math.round(Number(v) * scales[u]); };
// Every chart's axes: one unit per axis, round ticks (1, 2 or 5 times a power
// of ten of that unit, evenly spaced), and no label over another label or over
// an out-of-memory mark.
async function checkAxes(page, charts) {
  const n = await page.locator(charts).count();
  for (let i = 0; i < n; i++) {
    const chart = page.locator(charts).nth(i);
    for (const axis of ["x-tick", "y-tick"]) {
      const labels = await chart.locator("text." + axis).allTextContents();
      const unitsUsed = new Set(labels.map((t) => t.split(" ")[1]));
      const values = labels.map((t) => Number(t.split(" ")[0]));
      const step = values[1] - values[0];
      const mantissa = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
      check(labels.length >= 3 && unitsUsed.size === 1 && [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6) &&
            values.every((v, j) => j === 0 || Math.abs(v - values[j - 1] - step) < step * 1e-6),
            `chart ${i}: the ${axis === "x-tick" ? "time" : "bytes"} axis has one unit and round steps: ${labels.join(", ")}`);
    }
    const boxes = await chart.evaluate((svg) => {
      const r = (e) => { const b = e.getBoundingClientRect(); return { text: e.textContent || e.getAttribute("class"), x0: b.left, y0: b.top, x1: b.right, y1: b.bottom }; };
      return { texts: [...svg.querySelectorAll("text")].map(r), marks: [...svg.querySelectorAll(".oom-mark")].map(r) };
    });
    const overlap = (a, b) => a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5 && a.y0 < b.y1 - 0.5 && b.y0 < a.y1 - 0.5;
    const clashes = [];
    boxes.texts.forEach((a, j) => boxes.texts.slice(j + 1).forEach((b) => { if (overlap(a, b)) clashes.push(a.text + " / " + b.text); }));
    for (const a of boxes.texts) for (const m of boxes.marks) if (overlap(a, m)) clashes.push(a.text + " / out-of-memory mark");
    check(clashes.length === 0, `chart ${i}: no label overlaps another or a mark: ${clashes.join("; ")}`);
  }
}

// Sections, links and columns shown only with something in them.
async function checkShownOnlyWithContent(page, report) {
  const links = await page.locator("header nav a").evaluateAll((as) => as.map((a) => ({ href: a.getAttribute("href"), shown: !a.hidden })));
  for (const { href, shown } of links) {
    const target = await page.isVisible(href) && (href !== "#details-section" ||
                                                  await page.locator("#details-section section:visible").count() > 0);
    check(shown === target, `the link to ${href} ${target ? "shown" : "hidden"} with its section`);
  }
  const headers = await page.locator("#leak-table th").allTextContents();
  const noted = report.leaks.some((g) => g.suppressed_by || g.cached_by || g.growing || g.baseline || g.released_by || g.owner ||
                                         g.attributed_by_stack);
  check(headers.includes("notes") === noted, `a notes column only when a group has a note (${noted}): ${headers}`);
  const meta = await page.textContent("#meta");
  check(meta.includes("CI gate") === !!(report.gate && report.gate.evaluated), `the CI gate shown only when evaluated: ${meta}`);
}

async function checkMerged(page, report) {
  await checkShownOnlyWithContent(page, report);
  check(report.gate.evaluated && (await page.textContent("#meta")).includes("CI gate: failed"), "the CI gate one process asked for is shown");
  const counted = report.leaks.filter((g) => !g.suppressed_by && !g.cached_by);
  const verdict = await page.textContent("#verdict");
  check(verdict.includes(fmt(report.summary.leaked_bytes)), `verdict names the total ${fmt(report.summary.leaked_bytes)}: ${verdict}`);
  // The gate's verdict only when the run asked for one.
  const meta = await page.textContent("#meta");
  check(meta.includes("CI gate") === Boolean(report.gate && report.gate.evaluated),
        `the CI gate shown only when evaluated (${report.gate && report.gate.evaluated}): ${meta}`);
  const totals = await page.textContent("#totals");
  for (const kind of Object.keys(report.summary.by_kind)) check(totals.includes(kind), `totals list ${kind}`);
  for (const name of ["summary", "table", "flamegraph", "timeline", "oom", "segments"])
    check(await page.locator(`[data-section='${name}']`).count() === 1, `section ${name} marked`);
  check(!(await page.isVisible("[data-section='segments']")), "no PyTorch section without PyTorch data");
  check(!(await page.isVisible("header nav a[href='#segments']")), "and no link to it");

  // Table: one row per group, biggest first; sorting, filtering, stacks.
  const rows = page.locator("#leak-table tbody tr");
  check(await rows.count() === report.leaks.length, `one row per leak group (${report.leaks.length})`);
  const biggest = report.leaks[0];
  check((await rows.nth(0).locator("td").nth(1).textContent()).trim() === fmt(biggest.bytes), "biggest group first");
  await rows.nth(0).click();
  const stack = await page.textContent("#stack-panel");
  const fn = biggest.stack.find((f) => f.function && !isCuda(f));
  check(await page.isVisible("#stack-panel"), "a click on a row opens its stack");
  check(fn && stack.includes(fn.function), `the stack shows ${fn && fn.function}`);
  check(fn && fn.file ? stack.includes(fn.file) : true, "with its source file");
  check(stack.includes("allocations") && stack.includes("thread"), "and its allocations with their times");
  // The same click shades when the group was allocated on its device's lane.
  check(await page.locator("#timeline .group-band").count() === 1, "the chosen group is shaded on the timeline");
  check(await page.isVisible("#timeline .highlighted"), "and the shading is explained");
  const headers = await page.locator("#leak-table th").allTextContents();
  check(headers.includes("allocated") && headers.some((h) => h.startsWith("process")), `allocation times and processes are columns: ${headers}`);
  await page.click("#leak-table th[data-key='count']");
  const maxCount = Math.max(...report.leaks.map((g) => g.count));
  check(Number((await rows.nth(0).locator("td").nth(2).textContent()).trim()) === maxCount, "sorted by count, descending");
  await page.fill("#text-filter", fn.function.split("(")[0]);
  const filtered = await rows.count();
  check(filtered >= 1 && filtered < report.leaks.length, `text filter keeps 1..${report.leaks.length - 1} rows: ${filtered}`);
  await page.fill("#text-filter", "");

  // Flame graph (d3-flame-graph): leaked bytes at the top row, one tree per
  // process under it, every level of the deepest stack drawn, runtime frames hidden by default.
  const flameBytes = counted.filter((g) => memoryKinds.includes(g.kind)).reduce((a, g) => a + g.bytes, 0);
  const frames = page.locator("#flame g.frame");
  const frameAt = (depth) => page.locator(`#flame g.frame[data-depth='${depth}']`);
  const settle = () => page.waitForTimeout(500);  // the zoom's transition
  check(Number(await frameAt(0).getAttribute("data-bytes")) === flameBytes, `flame root holds ${fmt(flameBytes)}`);
  const flamePids = [...new Set(counted.filter((g) => g.bytes && memoryKinds.includes(g.kind)).map((g) => g.pid))];
  const processRows = await frameAt(1).evaluateAll((gs) => gs.map((g) => g.dataset.name));
  check(Number(await page.getAttribute("#flame", "data-processes")) === flamePids.length &&
        processRows.every((n) => flamePids.some((pid) => n.includes("pid " + pid))) && processRows.length >= 2,
        `one tree per process (${flamePids.length}; drawn wide enough: ${processRows.join(", ")})`);
  check(await frameAt(1).evaluateAll((gs) => gs.every((g) => g.dataset.kind === "process")), "the second row names the processes");
  // The smallest process, too narrow beside the biggest, zoomed into from the process list.
  const smallestPid = flamePids.slice().sort((a, b) => counted.filter((g) => g.pid === a).reduce((s, g) => s + g.bytes, 0) -
                                                       counted.filter((g) => g.pid === b).reduce((s, g) => s + g.bytes, 0))[0];
  const options = await page.locator("#flame-process option").allTextContents();
  check(options.length === flamePids.length + 1, `the process list offers every process: ${options.join(", ")}`);
  await page.selectOption("#flame-process", { index: options.findIndex((o) => o.includes("pid " + smallestPid)) });
  await settle();
  const smallRow = page.locator(`#flame g.frame[data-depth='1'][data-name*='pid ${smallestPid})']`);
  check(await smallRow.count() === 1 && Math.abs((await smallRow.locator("rect").boundingBox()).width - (await page.locator("#flame svg").boundingBox()).width) < 2,
        `choosing pid ${smallestPid} zooms its tree to the full width`);
  await page.selectOption("#flame-process", { index: 0 });
  await settle();
  const names = async () => frames.evaluateAll((gs) => gs.map((g) => g.dataset.name));
  const hidden = await names();
  check(!hidden.some((n) => /^(_start|__libc_start_main|cudaMalloc)/.test(n)), `runtime frames hidden: ${hidden.join(", ")}`);
  const mains = hidden.filter((n) => n === "main").length;
  check(mains >= 2, `each program's main is its own frame, not merged (${mains})`);
  const svgHeight = Number(await page.getAttribute("#flame svg", "height"));
  const depths = await frames.evaluateAll((gs) => Math.max(...gs.map((g) => Number(g.dataset.depth))));
  check(svgHeight >= (depths + 1) * 20, `full height: ${depths + 1} levels in ${svgHeight} px`);
  const flameBox = await page.locator("#flame svg").boundingBox();
  const deepest = await page.locator(`#flame g.frame[data-depth='${depths}'] rect`).first().boundingBox();
  check(deepest && deepest.y + deepest.height <= flameBox.y + flameBox.height + 1, "the deepest frame inside the chart");
  await page.uncheck("#flame-hide");
  const all = await names();
  check(all.some((n) => /^(_start|__libc_start)/.test(n)) && all.length > hidden.length, "unchecking the box shows runtime frames");
  await page.check("#flame-hide");
  // Tooltips: bytes, allocations, share and the frame's file:line.
  const withFile = report.leaks.find((g) => !g.suppressed_by && !g.cached_by && memoryKinds.includes(g.kind))
                         .stack.find((f) => f.file && (f.function || "").startsWith("train_step"));
  const trainFrame = page.locator("#flame g.frame[data-name^='train_step']").first();
  await trainFrame.scrollIntoViewIfNeeded();
  await trainFrame.hover();
  const flameTip = await page.textContent(".tip");
  check(await page.isVisible(".tip") && /allocation/.test(flameTip) && /%/.test(flameTip) && / (B|KiB|MiB|GiB)/.test(flameTip),
        `hovering a frame shows its bytes, count and share: ${flameTip}`);
  check(!withFile || flameTip.includes(withFile.file + ":" + withFile.line), `and its source line (${withFile && withFile.line})`);
  await page.mouse.move(0, 0);
  // Search highlights frames and says how much they hold.
  await page.fill("#flame-search", "train_step");
  check(await page.locator("#flame g.frame.match").count() >= 1, "search highlights the matching frames");
  check((await page.textContent("#flame-status")).includes("matched"), "and says how much they hold");
  await page.fill("#flame-search", "");
  check(await page.locator("#flame g.frame.match").count() === 0, "clearing the search clears the highlight");
  // A click zooms into a frame and lists only its groups in the table.
  const groupsUnder = report.leaks.filter((g) => !g.suppressed_by && !g.cached_by && memoryKinds.includes(g.kind) &&
                                               g.stack.some((f) => (f.function || "").startsWith("train_step"))).length;
  await trainFrame.click();
  await settle();
  const zoomedFrame = page.locator("#flame g.frame.zoomed");
  const zoomedWidth = (await zoomedFrame.locator("rect").boundingBox() || {}).width;
  check((await zoomedFrame.getAttribute("data-name")).startsWith("train_step") && Math.abs(zoomedWidth - flameBox.width) < 2,
        `a click zooms the frame to the full width (${zoomedWidth} of ${flameBox.width})`);
  check((await page.textContent("#flame-status")).includes("zoomed into train_step"), "the status says where the zoom is");
  check(await page.isVisible("#flame-filter") && await rows.count() === groupsUnder, `the table lists its ${groupsUnder} groups`);
  await page.click("#flame-filter button");
  check(await rows.count() === report.leaks.length, "clearing the flame filter shows every group");
  await frameAt(0).click();
  await settle();
  check(await frameAt(0).evaluate((g) => g.classList.contains("zoomed")) &&
        (await trainFrame.locator("rect").boundingBox()).width < flameBox.width - 2, "a click on the top row zooms out");
  // Other weights: live at the peak.
  const modes = await page.locator("#flame-mode option").evaluateAll((os) => os.map((o) => o.value));
  check(modes.includes("leaked") && modes.includes("peak"), `flame modes: ${modes}`);
  await page.selectOption("#flame-mode", "peak");
  const peakTotal = report.timeline.devices.flatMap((d) => d.peak.groups || []).reduce((a, g) => a + g.bytes, 0);
  check(Number(await frameAt(0).getAttribute("data-bytes")) === peakTotal, `peak mode weighs ${fmt(peakTotal)}`);
  await page.selectOption("#flame-mode", "leaked");

  // Timeline: one lane per device and process, on one time base from process start.
  const devices = report.timeline.devices;
  check(await page.locator("#timeline svg.chart").count() === devices.length, `one chart per device series (${devices.length})`);
  check(await page.locator("#timeline .peak-marker").count() === devices.length, "each chart marks its peak");
  const timelineText = await page.textContent("#timeline");
  for (const d of devices) check(timelineText.includes("peak " + fmt(d.peak.bytes)), `peak ${fmt(d.peak.bytes)} labelled`);
  check(await page.locator("#timeline .peak-groups").count() >= 1 && timelineText.includes("live at the peak"), "the peak explained by its groups");
  check(await page.locator("#timeline svg.chart path[data-kind]").count() >= devices.length, "kinds drawn as stacked areas");
  await checkAxes(page, "#timeline svg.chart");
  // Each process's lanes span its own run: a lane's time axis ends within a step of its process's last event.
  const firstStart = Math.min(...report.processes.map((p) => p.start_unix_ns));
  for (const [i, d] of devices.entries()) {
    const p = report.processes.find((x) => x.pid === d.pid);
    const own = Math.max(d.peak.time_ns, ...d.points.map((x) => x[0]), ...(report.oom_events || []).filter((e) => e.pid === d.pid).map((e) => e.time_ns),
                         ...(report.timeline.marks || []).filter((m) => m.pid === d.pid).map((m) => m.time_ns)) - (p.start_unix_ns - firstStart);
    const ticks = (await page.locator("#timeline svg.chart").nth(i).locator("text.x-tick").allTextContents()).map(toNs);
    const step = ticks[1] - ticks[0];
    check(ticks[0] === 0 && ticks.at(-1) <= own && ticks.at(-1) + step > own,
          `pid ${d.pid}'s lane spans its own run (${ticks.at(-1)} ns of ticks for ${own} ns since it started)`);
  }
  // The peak's list says what it leaves out.
  for (const [i, d] of devices.entries()) {
    const listed = (d.peak.groups || []).slice(0, 5).reduce((a, g) => a + g.bytes, 0);
    if (!(d.peak.groups || []).length) continue;
    const head = await page.locator("#timeline .peak-groups").nth(devices.slice(0, i).filter((x) => (x.peak.groups || []).length).length)
                           .locator("li").first().textContent();
    check(listed < d.peak.bytes ? head.includes("largest") && head.includes(fmt(d.peak.bytes - listed)) : !head.includes("largest"),
          `"live at the peak" of pid ${d.pid} says what it leaves out: ${head}`);
  }
  const starts = report.processes.map((p) => p.start_unix_ns).filter(Boolean);
  check(starts.length === report.processes.length, "every process says when it started");
  const checkpoints = (report.timeline.marks || []).filter((m) => m.type === "checkpoint").length;
  check(checkpoints > 0 && await page.locator("#timeline [data-mark='checkpoint']").count() === checkpoints,
        `checkpoints marked on their lane (${checkpoints})`);
  check(await page.locator("#timeline [data-mark='report']").count() === 1, "the checkpoint report marked");
  // Hover shows values; a drag zooms; a double click zooms out.
  const chart = page.locator("#timeline svg.chart").first();
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
  check(await page.isVisible(".tip"), "hovering the timeline shows a tooltip");
  check(/device/.test(await page.textContent(".tip")), "with the time and device");
  const axisEnd = async () => (await page.locator("#timeline svg.chart").first().locator("text.axis").allTextContents()).at(-1);
  const before = await axisEnd();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.up();
  check(await axisEnd() !== before && await page.isVisible("#timeline .zoomed"), "a drag zooms");
  // Pan: the buttons move the zoomed span by half its width, within the run.
  const zoomedText = async () => await page.textContent("#timeline .zoomed");
  const zoomedAt = await zoomedText();
  await page.click("#timeline .pan-later");
  const later = await zoomedText();
  check(later !== zoomedAt && await axisEnd() !== before, `"later" pans the zoomed span (${zoomedAt.split(" (")[0]} -> ${later.split(" (")[0]})`);
  await page.click("#timeline .pan-earlier");
  check(await zoomedText() === zoomedAt, "and \"earlier\" pans it back");
  const zoomedBox = await page.locator("#timeline svg.chart").first().boundingBox();
  await page.keyboard.down("Shift");
  await page.mouse.move(zoomedBox.x + zoomedBox.width * 0.5, zoomedBox.y + zoomedBox.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(zoomedBox.x + zoomedBox.width * 0.3, zoomedBox.y + zoomedBox.height * 0.5, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  check(await zoomedText() !== zoomedAt && await page.isVisible("#timeline .zoomed"), "a shift-drag pans, keeping the zoom");
  await page.locator("#timeline svg.chart").first().dblclick({ position: { x: 5, y: 5 } });
  check(await axisEnd() === before, "a double click zooms out");
  // Stacked by site: each lane's biggest sites, named as the table names them, and what the points do not list.
  const withSites = devices.filter((d) => (d.sites || []).length);
  check(withSites.length > 0 && await page.isVisible("#timeline-by"), `the by-site switch is offered (${withSites.length} lanes have sites)`);
  await page.selectOption("#timeline-by", "site");
  check(await page.locator("#timeline svg.chart path[data-kind]").count() === 0, "by site, no kind areas are drawn");
  const siteAreas = await page.locator("#timeline svg.chart path[data-site]").count();
  const named = new Set(withSites.flatMap((d) => (d.site_points || []).flatMap((p) => p.map(([s]) => d.pid + ":" + s)))).size;
  check(siteAreas >= named && named > 0, `one area per site a point names (${siteAreas} areas, ${named} sites)`);
  const biggestSite = withSites[0].sites.slice().sort((a, b) => b.peak_bytes - a.peak_bytes)[0];
  const siteWhere = (biggestSite.stack || []).find((f) => f.file && !/lib(cu|nv)/.test(f.module || ""));
  check(!siteWhere || (await page.textContent("#timeline")).includes(siteWhere.function), `the legend names the biggest site (${siteWhere && siteWhere.function})`);
  const peakDot = await page.locator("#timeline .peak-marker").first().boundingBox();  // something is live at the peak
  await page.mouse.move(peakDot.x + peakDot.width / 2, box.y + box.height * 0.6);
  check(/ at /.test(await page.textContent(".tip")), "hovering by site lists the sites");
  await page.selectOption("#timeline-by", "kind");
  check(await page.locator("#timeline svg.chart path[data-kind]").count() >= devices.length, "and back to kinds");

  // Leaked allocations over time (memory_viz's stacked bands): one choice per device and process with listed
  // allocations, biggest first; one band per listed allocation, stacked to their sum; hover names the stack.
  const laneBytes = new Map();
  for (const g of counted.filter((g) => memoryKinds.includes(g.kind) && g.bytes && (g.allocations || []).length))
    laneBytes.set(g.device + ":" + g.pid, (laneBytes.get(g.device + ":" + g.pid) || 0) + g.bytes);
  // A device with growth histories and no leak has a chart of its own too.
  const historyLanes = new Set(report.timeline.devices.filter((d) => (d.growth || []).some((h) => (h.history || []).length > 1 &&
                                                                                                  Math.max(...h.history) > 0))
                                                      .map((d) => d.device + ":" + d.pid));
  const lanesDrawn = new Set([...laneBytes.keys(), ...historyLanes]).size;
  check(await page.locator("#allocations-device option").count() === lanesDrawn, `one allocation chart per device and process (${lanesDrawn})`);
  const biggestLane = [...laneBytes.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const laneGroups = counted.filter((g) => memoryKinds.includes(g.kind) && g.bytes && g.device + ":" + g.pid === biggestLane);
  const listed = laneGroups.flatMap((g) => (g.allocations || []).filter((a) => a.bytes && a.time_ns !== undefined));
  const bands = page.locator("#allocations rect.allocation");
  check(await bands.count() === listed.length, `one band per listed allocation (${listed.length})`);
  const bandBytes = (await bands.evaluateAll((rs) => rs.map((r) => Number(r.dataset.bytes)))).reduce((a, b) => a + b, 0);
  check(bandBytes === listed.reduce((a, x) => a + x.bytes, 0), `the bands stack to ${fmt(bandBytes)}`);
  const tops = await bands.evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect()).map((b) => [b.left, b.top, b.bottom]));
  check(tops.every((b, i) => i === 0 || (b[0] >= tops[i - 1][0] - 0.5 && b[2] <= tops[i - 1][1] + 0.5)),
        "each later allocation starts no earlier and sits on the one before");
  await checkAxes(page, "#allocations svg.chart");
  await bands.last().scrollIntoViewIfNeeded();
  await bands.last().hover();
  const laneFn = laneGroups[0].stack.find((f) => f.function && !isCuda(f) && !/^_start|__libc/.test(f.function));
  check((await page.textContent(".tip")).includes(laneFn.function.split("(")[0]), `hovering a band shows its stack (${laneFn.function})`);
  await bands.last().click();
  check((await page.textContent("#stack-panel")).includes(laneFn.function.split("(")[0]), "a click on a band opens its group in the table");

  // Out of memory: the ranked diagnosis, marks that lead to it.
  const ooms = report.oom_events || [];
  check(ooms.length > 0 && await page.locator("#oom .oom").count() === ooms.length, `one entry per OOM (${ooms.length})`);
  check(await page.locator("#oom-0 li").first().getAttribute("data-cause") === ooms[0].diagnosis[0].cause, "first cause first");
  check((await page.textContent("#oom-0")).includes(ooms[0].diagnosis[0].message), "in the text report's words");
  // Its time, like the timeline's, since its own process started.
  const fmtTime = (ns) => ns >= 1e9 ? (ns / 1e9).toFixed(2) + " s" : ns >= 1e6 ? (ns / 1e6).toFixed(2) + " ms" : (ns / 1e3).toFixed(1) + " us";
  const oomProcess = report.processes.find((p) => p.pid === ooms[0].pid);
  const oomSince = fmtTime(ooms[0].time_ns - (oomProcess.start_unix_ns - Math.min(...report.processes.map((p) => p.start_unix_ns))));
  check((await page.textContent("#oom-0 h3")).includes("Out of memory at " + oomSince + " in pid " + ooms[0].pid),
        `the OOM's time counts from its process's start (${oomSince})`);
  const oomMarks = page.locator("#timeline [data-mark='oom']");
  check(await oomMarks.count() === ooms.length, "each OOM marked on the timeline");
  await oomMarks.first().click({ force: true });
  check(await page.locator("#oom .oom.flash").count() === 1, "a click on an OOM mark shows its diagnosis");

  // Processes, modules.
  check(await page.locator("#processes tbody tr").count() === report.processes.length, "one row per process");
  const processHeaders = await page.locator("#process-table th").allTextContents();
  check(processHeaders.includes("rank") === report.processes.some((p) => p.rank >= 0), `a rank column only with ranks: ${processHeaders}`);
  check(await page.isVisible("[data-section='modules']"), "modules listed");
}

async function checkPyTorch(page, report) {
  await checkShownOnlyWithContent(page, report);
  check(await page.isVisible("header nav a[href='#segments']"), "the PyTorch cache link shown with its section");
  check(await page.isVisible("[data-section='segments']"), "the PyTorch section is shown");
  const view = report.pytorch.devices[0];
  const canvas = page.locator("canvas.segment-map").first();
  check(Number(await canvas.getAttribute("data-segments")) === view.segment_list.length, `every listed segment drawn (${view.segment_list.length})`);
  const reading = await page.textContent(".segment-reading");
  check(reading.includes("fragmentation") && reading.includes(fmt(view.largest_free_block)), `the reading names fragmentation: ${reading}`);
  await canvas.hover({ position: { x: 3, y: 5 } });
  const tipText = await page.textContent(".tip");
  check(await page.isVisible(".tip") && tipText.includes("segment 0x") && tipText.includes("live block"), `hover names the segment: ${tipText}`);
  const tensors = await page.textContent("table.tensors");
  const top = view.live_tensors[0].stack[0];
  check(tensors.includes(top.file.split("/").pop() + ":" + top.line), `live tensors by Python line (${top.function}:${top.line})`);
  // One view per moment: each OOM PyTorch raised, and the report's own unless it is the last of those.
  const withViews = report.oom_events.filter((e) => e.pytorch).length + (report.pytorch.when === "oom" ? 0 : 1);
  check(await page.locator("#segments-view option").count() === withViews, `one view per moment (${withViews})`);
  // The OOM raised by PyTorch says fragmentation and leads to its segment map.
  const n = report.oom_events.findIndex((e) => e.pytorch);
  check((await page.textContent(`#oom-${n}`)).includes("fragmentation"), "PyTorch's OOM diagnosed as fragmentation");
  // The failed cudaMalloc calls before it are inside its story, not entries of their own.
  const attempts = (report.oom_events[n].attempts || []).length;
  check(attempts >= 1 && (await page.textContent(`#oom-${n}`)).includes("before it, " + attempts + " failed call"),
        `its ${attempts} failed calls listed inside it`);
  check(report.oom_events.every((e) => e.pytorch), "no failed call of PyTorch's is an event of its own");
  await page.click(`#oom-${n} a[href='#segments']`);
  check((await page.locator("#segments-view option:checked").textContent()).includes("#" + (n + 1)), "its segment map link shows the view at that OOM");
  // Flame graph by Python line, and what the cache held.
  const modes = await page.locator("#flame-mode option").evaluateAll((os) => os.map((o) => o.value));
  check(modes.includes("tensors") && modes.includes("cached"), `flame modes for PyTorch: ${modes}`);
  await page.selectOption("#flame-mode", "tensors");
  check(await page.locator("#flame g.frame[data-kind='py']").count() >= 1, "Python frames in the flame graph");
  check(await page.locator(`#flame g.frame[data-name^='${top.function} (']`).count() >= 1, `the frame ${top.function} drawn`);
  // What the cache held: native frames under the Python ones.
  await page.selectOption("#flame-mode", "cached");
  check(await page.locator("#flame g.frame[data-kind='py']").count() >= 1 &&
        await page.locator("#flame g.frame[data-kind='native'], #flame g.frame[data-kind='framework']").count() >= 1,
        "native and Python frames in one stack");
  check((await page.textContent("#verdict")).includes("caching allocators"), "the verdict says the cache is not a leak");
  await checkAxes(page, "#timeline svg.chart");
}

// JAX's view: XLA's pool and the arrays by line, at exit and at XLA's
// out-of-memory; a 64-rank job's devices folded, one rank's on demand.
async function checkJax(out) {
  const report = JSON.parse(readFileSync(out + "/jax-report.json", "utf8"));
  const page = await open(out + "/jax.html");
  check(await page.isVisible("[data-section='jax']") && await page.isVisible("header nav a[href='#jax-section']"),
        "the JAX section and its link are shown with JAX data");
  const views = await page.locator("#jax-view option").allTextContents();
  check(views.length === 2 && views[0] === "at exit" && views[1].startsWith("at out-of-memory #1"), `JAX at exit and at its failure: ${views}`);
  const head = await page.textContent(".jax-device h3");
  check(head.includes("XLA's pool 176.0 MiB in use of its 192.0 MiB limit") && head.includes("live arrays 176.0 MiB in 12"),
        `the device's pool as the text says it: ${head}`);
  const rows = await page.locator(".jax-device table.jax-lines tbody tr").allTextContents();
  check(rows.length === 2 && rows[0].startsWith("176.0 MiB11float32[4096,1024] (16.0 MiB)fill (jax_list_oom.py:14)"),
        `the arrays by the user's line, JAX's own frames skipped: ${rows}`);
  const parts = await page.locator(".jax-device .jax-pool span").evaluateAll((s) => s.map((x) => x.dataset.part));
  check(parts.join() === "arrays,free", `the pool's bar: the arrays and the free rest (${parts})`);
  const n = report.oom_events.findIndex((e) => e.jax);
  await page.click(`#oom-${n} a[href='#jax-section']`);
  check((await page.locator("#jax-view option:checked").textContent()).startsWith("at out-of-memory #" + (n + 1)),
        "the out-of-memory card's link shows JAX's view at that failure");
  const job = await open(out + "/jaxjob.html");
  check(await job.locator(".jax-device").count() === 0 && await job.locator(".jax-fold").count() === 1,
        "64 ranks' devices folded into one view");
  const fold = await job.textContent(".jax-fold h3");
  check(fold.startsWith("64 devices of ranks 0-63") && fold.includes("live arrays median 176.0 MiB (176.0 MiB-1.4 GiB) in 12-96"),
        `the fold's pool and arrays across the ranks: ${fold}`);
  const across = await job.locator("table.jax-across tbody tr").allTextContents();
  check(across.length === 2 && across[0] === "median 176.0 MiB (176.0 MiB-1.4 GiB)11-88every onefloat32[4096,1024] (16.0 MiB)fill (jax_list_oom.py:14)",
        `each line once across the ranks: ${across}`);
  await job.selectOption(".jax-fold select.jax-one", { label: "rank 4 \u00b7 device 4 \u00b7 pid 4004" });
  const one = await job.textContent(".jax-one-device .jax-device h3");
  check(one.startsWith("device 4 \u00b7 rank 4") && one.includes("live arrays 1.4 GiB in 96"), `one rank's device on demand: ${one}`);
  const odd = await job.textContent("#summary");
  check(odd.includes("rank 4 (pid 4004 on node000) held 1.4 GiB in JAX's live arrays"), "the rank whose arrays grew, first in the summary");
  await page.screenshot({ path: out + "/jax.png", fullPage: true });
}

try {
  const merged = JSON.parse(readFileSync(mergedJson, "utf8"));
  const page = await open(out + "/report.html");
  await checkMerged(page, merged);
  await page.screenshot({ path: out + "/report.png", fullPage: true });
  const pytorch = JSON.parse(readFileSync(pytorchJson, "utf8"));
  const torchPage = await open(out + "/pytorch.html");
  await checkPyTorch(torchPage, pytorch);
  await torchPage.screenshot({ path: out + "/pytorch.png", fullPage: true });
  // Without per-tensor stacks the live tensors are named by the line that reserved their segments.
  const segmentsPage = await open(out + "/segments.html");
  const byLine = await segmentsPage.textContent("table.tensors");
  check(byLine.includes("in segments reserved by work (scenario_exceptions.py:9)"), `tensors named by their segments' line: ${byLine}`);
  // Growth by line (tests/cases/growth/torch_line_growth.py): PyTorch's live
  // tensors by line in the growth table, and their histories drawn over the
  // allocations' chart though nothing of them leaked.
  const growthPage = await open(out + "/growth.html");
  const growthRows = await growthPage.locator("#growth tr[data-steady='1']").allTextContents();
  check(growthRows.length === 1 && growthRows[0].includes("PyTorch's live tensors at keep_for_debugging") &&
        growthRows[0].includes("per 1,000 requests"), `the growth table's one steady row is the line, per request: ${growthRows}`);
  check(await growthPage.locator("#allocations-section").isVisible(), "the allocations chart is drawn for histories alone");
  const steadyLines = growthPage.locator("#allocations path.growth-history[data-view='pytorch'][data-steady='1']");
  check(await steadyLines.count() === 1, "the line's history is drawn on the allocations chart, solid");
  check(await growthPage.locator("#allocations path.growth-history[data-steady='0']").count() >= 1,
        "the flat histories (the segment, the other lines) dashed beside it");
  await checkAxes(growthPage, "#allocations svg.chart");
  await steadyLines.first().dispatchEvent("mousemove");
  check((await growthPage.textContent(".tip")).includes("keep_for_debugging"), "hovering the line names it");
  // A merge of processes that had no rank: no rank column.
  const noRank = await open(out + "/norank.html");
  const noRankHeaders = await noRank.locator("#process-table th").allTextContents();
  check(!(await noRank.textContent("#meta")).includes("CI gate"), "no CI gate shown when none was asked");
  check(noRankHeaders.length > 0 && !noRankHeaders.includes("rank"), `no rank column when no process had one: ${noRankHeaders}`);
  await checkAxes(noRank, "#timeline svg.chart");
  // A job of ranks 0-2 of 4, leaking at one site on each: the summary names
  // the job and the missing rank; the table has one row for the three ranks.
  const jobPage = await open(out + "/job.html");
  const jobMeta = await jobPage.textContent("#meta");
  check(jobMeta.includes("job: ranks 0-2 of 4") && jobMeta.includes("no report from rank 3"), `the job in the summary: ${jobMeta}`);
  const jobRows = await jobPage.locator("#leak-table tbody tr").allTextContents();
  check(jobRows.some((row) => row.includes("ranks 0-2 (3 of 4)")), `one row for the three ranks: ${jobRows.slice(0, 3)}`);
  await checkJax(out);
} finally {
  await browser.close();
}
for (const f of failures) console.log("FAILED: " + f);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
