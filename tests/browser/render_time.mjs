// Prints how long Chromium takes to open an HTML report until every view has
// drawn (body[data-ready]), best of three loads: node render_time.mjs REPORT.html
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
                                        args: ["--no-sandbox", "--disable-gpu"] });
try {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const start = Date.now();
    await page.goto(pathToFileURL(process.argv[2]).href);
    await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
    best = Math.min(best, Date.now() - start);
    errors.push(...await page.locator(".view-error").allTextContents());
    if (errors.length) throw new Error(errors.join("; "));
    await page.close();
  }
  console.log(`render: ${best} ms to every view drawn (best of 3)`);
} finally {
  await browser.close();
}
