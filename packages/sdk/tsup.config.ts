import { defineConfig } from "tsup";

const entry = { index: "src/index.ts", csv: "src/csv/index.ts" };

// ky is ESM-only: the ESM build imports it, the CJS build inlines it so `require("@timbre/sdk")`
// works on every Node 20 (require(esm) is only on by default from 20.19).
// `@timbre/core/permissions` (the permission list shared with the server, no imports of its own) is bundled: the
// published SDK does not depend on core; its types declare the list without naming core (`permissions.ts`).
const core = /^@timbre\/core\/permissions$/;
export default defineConfig([
  { entry, format: ["esm"], dts: true, target: "node20", noExternal: [core] },
  { entry, format: ["cjs"], dts: true, target: "node20", noExternal: ["ky", core] },
]);
