/** Debian's Chromium through playwright-core, plus screenshots at desktop and phone width. */
import { existsSync, mkdirSync } from "node:fs";
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
  // One-time secrets (from throwaway test servers) are masked anyway: no key-looking strings in the repo.
  const mask = [page.locator("#secret-value")];
  if (write) await page.screenshot({ path: `${SCREENSHOT_DIR}${name}-desktop.png`, fullPage: true, mask, maskColor: "#d5dbe5" });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(50);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (write) await page.screenshot({ path: `${SCREENSHOT_DIR}${name}-phone.png`, fullPage: true, mask, maskColor: "#d5dbe5" });
  await page.setViewportSize(DESKTOP);
  return overflow;
}

/** Form controls without an accessible name (label, aria-label or aria-labelledby). */
export async function unlabeledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("input:not([type=hidden]), select, textarea")]
      .filter((el) => {
        const labelled = (el as HTMLInputElement).labels?.length || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
        return !labelled;
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** Chromium is needed; CI installs it (.ci/run). Elsewhere a missing browser skips the browser suites, saying so. */
export function chromiumMissing(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const reason = `Chromium not found at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === "true") throw new Error(reason);
  console.log(`[dashboard] browser tests skipped: ${reason}`);
  return reason;
}
