import { defineConfig } from "tsup";
// `shims`: the CommonJS build gets `import.meta.url` from `__filename`, so both builds find the data beside `dist/`.
export default defineConfig({ entry: ["src/index.ts"], format: ["esm", "cjs"], dts: true, clean: true, target: "node20", shims: true });
