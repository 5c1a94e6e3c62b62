// Renders images/icon.svg to images/icon.png (128×128, transparent corners)
// in headless Chromium, the way the webview test runs it.
//
//   node scripts/render-icon.mjs      (CHROMIUM names the browser; default /usr/bin/chromium)

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const images = join(dirname(fileURLToPath(import.meta.url)), "..", "images");
const svg = readFileSync(join(images, "icon.svg"), "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(`<!DOCTYPE html><html><body style="margin:0">${svg}</body></html>`);
  await page.locator("svg").screenshot({ path: join(images, "icon.png"), omitBackground: true });
} finally {
  await browser.close();
}
