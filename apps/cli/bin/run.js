#!/usr/bin/env node
import { existsSync } from "node:fs";
import { execute } from "@oclif/core";

// In a checkout of the repository the commands exist only once built: say so instead of oclif's ModuleLoadError.
if (!existsSync(new URL("../dist/index.js", import.meta.url))) {
  process.stderr.write("timbre: this copy of @timbre/cli is not built; run `npm run build` at the repository root.\n");
  process.exit(2);
}

await execute({ dir: import.meta.url });
