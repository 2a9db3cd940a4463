// The HTML report in Debian's Chromium, driven by playwright-core:
// node html_report.test.mjs REPORT.html REPORT.json SCREENSHOT.png
// Checks that the page loads without errors, that the table and charts show
// the report's numbers, that sorting, filtering and a click on a row work.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [html, json, screenshot] = process.argv.slice(2);
const report = JSON.parse(readFileSync(json, "utf8"));
let passed = 0;
const failures = [];
const check = (ok, what) => { if (ok) passed++; else failures.push(what); };
const fmt = (n) => { const u = ["B", "KiB", "MiB", "GiB"]; let i = 0, v = n; while (v >= 1024 && i < 3) { v /= 1024; i++; } return i ? v.toFixed(1) + " " + u[i] : n + " B"; };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  const requests = [];
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) requests.push(r.url()); });
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector("body[data-ready='1']", { timeout: 10000 });
  check(errors.length === 0, "no errors in the page: " + errors.join("; "));
  check(requests.length === 0, "no network requests: " + requests.join(", "));

  const counted = report.leaks.filter((g) => !g.suppressed_by && !g.cached_by);
  const verdict = await page.textContent("#verdict");
  check(verdict.includes(fmt(report.summary.leaked_bytes)), `verdict names the total ${fmt(report.summary.leaked_bytes)}: ${verdict}`);
  const totals = await page.textContent("#totals");
  for (const [kind, t] of Object.entries(report.summary.by_kind))
    check(totals.includes(kind), `totals list ${kind}`);

  const rows = page.locator("#leak-table tbody tr");
  check(await rows.count() === report.leaks.length, `one row per leak group (${report.leaks.length})`);
  const biggest = report.leaks[0];
  const firstBytes = (await rows.nth(0).locator("td").nth(1).textContent()).trim();
  check(firstBytes === fmt(biggest.bytes), `biggest group first: ${firstBytes} vs ${fmt(biggest.bytes)}`);

  // A click on the first row opens its stack.
  await rows.nth(0).click();
  const stack = await page.textContent("#stack-panel");
  const fn = biggest.stack.find((f) => f.function && !/^(cu[a-z]*|nccl)[A-Z]/.test(f.function) && !/(^|\/)lib(cu|nccl|nv)/.test(f.module));
  check(await page.isVisible("#stack-panel"), "the stack panel opens");
  check(fn && stack.includes(fn.function), `the stack shows ${fn && fn.function}`);
  check(fn && fn.file ? stack.includes(fn.file.split("/").pop()) || stack.includes(fn.file) : true, "with its source file");

  // Sorting by count puts the largest count first.
  await page.click("#leak-table th[data-key='count']");
  const maxCount = Math.max(...report.leaks.map((g) => g.count));
  check(Number((await rows.nth(0).locator("td").nth(2).textContent()).trim()) === maxCount, "sorted by count, descending");

  // Filtering by a function name keeps only matching groups.
  await page.fill("#text-filter", fn.function.split("(")[0]);
  const filtered = await rows.count();
  check(filtered >= 1 && filtered < report.leaks.length, `filter keeps 1..${report.leaks.length - 1} rows: ${filtered}`);
  await page.fill("#text-filter", "");

  // Icicle: a root node with the counted bytes.
  const memoryKinds = ["device", "pinned", "registered", "managed", "async", "vmm", "array"];
  const flameBytes = counted.filter((g) => memoryKinds.includes(g.kind)).reduce((a, g) => a + g.bytes, 0);
  const rootTitle = await page.getAttribute("#flame .node", "title");
  check(rootTitle && rootTitle.includes(fmt(flameBytes)), `icicle root holds ${fmt(flameBytes)}: ${rootTitle}`);
  check(await page.locator("#flame .node").count() > 3, "icicle has frames");

  // Sections the page marks for tools and tests.
  for (const name of ["summary", "table", "flamegraph", "timeline"])
    check(await page.locator(`[data-section='${name}']`).count() === 1, `section ${name} marked`);

  // Timeline: one chart per device series on one time base from process
  // start, kinds stacked, the peak marked with its value.
  const devices = report.timeline.devices;
  check(await page.locator("#timeline svg.chart").count() === devices.length, `one chart per device series (${devices.length})`);
  check(await page.locator("#timeline .peak-marker").count() === devices.length, "each chart marks its peak");
  const timelineText = await page.textContent("#timeline");
  for (const d of devices) check(timelineText.includes("peak " + fmt(d.peak.bytes)), `peak ${fmt(d.peak.bytes)} labelled`);
  const stacked = await page.locator("#timeline svg.chart path[data-kind]").count();
  check(stacked >= devices.length, `kinds drawn as stacked areas (${stacked})`);
  const firstAxis = await page.locator("#timeline svg.chart").first().locator("text.axis").allTextContents();
  check(firstAxis.includes("0.0 us"), `time axis starts at process start: ${firstAxis.join(", ")}`);

  // Hover shows the values under the pointer.
  const chart = page.locator("#timeline svg.chart").first();
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
  check(await page.isVisible(".tip"), "hovering the timeline shows a tooltip");
  const tipText = await page.textContent(".tip");
  check(/device/.test(tipText) && /(B|nothing live yet)/.test(tipText), `tooltip gives time and values: ${tipText}`);

  // A drag zooms in (the axis end moves), a double click zooms out.
  const axisEnd = async () => (await page.locator("#timeline svg.chart").first().locator("text.axis").allTextContents()).at(-1);
  const before = await axisEnd();
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.5, { steps: 4 });
  await page.mouse.up();
  const zoomed = await axisEnd();
  check(zoomed !== before && await page.isVisible("#timeline .zoomed"), `drag zooms: axis ends ${before} -> ${zoomed}`);
  await page.locator("#timeline svg.chart").first().dblclick({ position: { x: 5, y: 5 } });
  check(await axisEnd() === before, "double click zooms out");

  // Out-of-memory events: a section with the ranked diagnosis, and marks.
  const ooms = report.oom_events || [];
  check(ooms.length > 0, "the test report has out-of-memory events");
  check(await page.isVisible("[data-section='oom']"), "OOM section shown");
  check(await page.locator("#oom .oom").count() === ooms.length, `one entry per OOM (${ooms.length})`);
  const firstCause = ooms[0].diagnosis[0].cause;
  check(await page.locator("#oom-0 li").first().getAttribute("data-cause") === firstCause, `first cause ${firstCause} first`);
  check((await page.textContent("#oom-0")).includes(ooms[0].diagnosis[0].message), "the diagnosis in the text report's words");
  check(await page.locator("#timeline [data-mark='oom']").count() >= 1, "OOMs marked on the timeline");

  // Processes of a merged report.
  if ((report.processes || []).length > 1) {
    check(await page.locator("#processes tbody tr").count() === report.processes.length, "one row per process");
  }
  await page.screenshot({ path: screenshot, fullPage: true });
} finally {
  await browser.close();
}
for (const f of failures) console.log("FAILED: " + f);
console.log(`${passed} passed, ${failures.length} failed`);
process.exit(failures.length ? 1 : 0);
