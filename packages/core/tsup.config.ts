import { defineConfig } from "tsup";

const areas = ["rut", "decimal", "document", "tables", "totals", "caf", "folios", "xml", "signature", "certificates", "lifecycle", "permissions", "errors", "pdf", "testing"];

export default defineConfig({
  entry: ["src/index.ts", ...areas.map((a) => `src/${a}/index.ts`)],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: true,
  treeshake: true,
});
