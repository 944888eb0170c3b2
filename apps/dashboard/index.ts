export { buildDashboard, dashboardAssets, dashboardDir, type DashboardAsset } from "./assets.js";
