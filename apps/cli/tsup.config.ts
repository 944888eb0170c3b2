import { defineConfig } from "tsup";

// One ESM bundle holding every command (oclif "explicit" command discovery reads its COMMANDS export).
// @oclif/core and @timbre/sdk stay runtime dependencies; typescript must never be pulled in.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node20",
  platform: "node",
  clean: true,
  dts: false,
  external: ["typescript", "@oclif/core", "@timbre/sdk"],
});
