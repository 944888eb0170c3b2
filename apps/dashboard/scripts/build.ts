/** `npm run build -w @timbre/dashboard` → dist/index.html, dist/app.js, dist/app.css. */
import { buildDashboard, dashboardDir } from "../assets.js";

const assets = await buildDashboard(dashboardDir);
for (const a of assets) console.log(`dist/${a.name}  ${(a.body.byteLength / 1024).toFixed(1)} KiB`);
