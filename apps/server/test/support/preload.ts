/**
 * Runs before the server's test files (`bunfig.toml` → `[test] preload`): builds the migrated PGlite template once,
 * so no file's `beforeAll` pays for it (see `warmPgliteTemplate`).
 */
import { warmPgliteTemplate } from "./harness.js";

await warmPgliteTemplate();
