/** Debian's Chromium through playwright-core, plus screenshots at desktop and phone width. */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOT_DIR = fileURLToPath(new URL("../../../../docs/screenshots/", import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
}

/**
 * Checks the page has no horizontal scroll at 375 px and, with SCREENSHOTS=1, writes
 * `docs/screenshots/<name>-desktop.png` and `-phone.png`. Returns the phone's horizontal overflow in px.
 */
export async function shoot(page: Page, name: string): Promise<number> {
  const write = process.env.SCREENSHOTS === "1";
  if (write) mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(50);
  if (write) await page.screenshot({ path: `${SCREENSHOT_DIR}${name}-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(50);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (write) await page.screenshot({ path: `${SCREENSHOT_DIR}${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  return overflow;
}
