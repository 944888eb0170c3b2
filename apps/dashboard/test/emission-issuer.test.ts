/** Runs ./emission-issuer.suite.ts in Chromium; without a browser outside CI it is skipped with the reason printed. */
import { test } from "bun:test";
import { chromiumMissing } from "./support/browser.js";

const missing = chromiumMissing();
if (missing) test.skip(`emission-issuer (${missing})`, () => {});
else await import("./emission-issuer.suite.js");
