// Screenshots of an HTML report's views, for docs/reading-reports.md:
//   node screenshots.mjs REPORT.html PREFIX [section...]
// writes PREFIX-<section>.png for each section shown (default: every marked one);
// "timeline:site" shows the timeline stacked by site (PREFIX-timeline-site.png),
// "flamegraph:cached" the flame graph in that mode (PREFIX-flamegraph-cached.png).
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";

const [html, prefix, ...wanted] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
                                        args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
  const sections = wanted.length ? wanted : await page.locator("[data-section]").evaluateAll((s) => s.map((x) => x.dataset.section));
  for (const wantedName of sections) {
    const [name, by] = wantedName.split(":");
    const section = page.locator(`[data-section='${name}']`);
    if (!(await section.isVisible())) continue;
    if (name === "flamegraph" && by) await page.selectOption("#flame-mode", by);
    else await page.selectOption("#timeline-by", by || "kind");
    await page.waitForTimeout(800);  // the flame graph's transitions and labels
    const file = `${prefix}-${name}${by ? "-" + by : ""}.png`;
    await section.screenshot({ path: file });
    console.log(file);
  }
} finally {
  await browser.close();
}
