import { defineConfig } from "tsup";
export default defineConfig({
  entry: ["src/index.ts", "src/client/index.ts", "src/sandbox/index.ts", "src/codes/index.ts"],
  format: ["esm", "cjs"], dts: true, clean: true, target: "node20", external: ["@timbre/core"],
});
