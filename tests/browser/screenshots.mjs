// Screenshots of an HTML report's views, for docs/reading-reports.md:
//   node screenshots.mjs REPORT.html PREFIX [section...]
// writes PREFIX-<section>.png for each section shown (default: every marked one).
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
  for (const name of sections) {
    const section = page.locator(`[data-section='${name}']`);
    if (!(await section.isVisible())) continue;
    await section.screenshot({ path: `${prefix}-${name}.png` });
    console.log(`${prefix}-${name}.png`);
  }
} finally {
  await browser.close();
}
