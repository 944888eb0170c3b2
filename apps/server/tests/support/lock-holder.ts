/** Takes the data-directory lock at argv[2] and holds it until killed (for the lock's multi-process tests). */
import { acquireLock } from "../../src/db/lock-file.js";

const path = process.argv[2];
if (!path) throw new Error("usage: lock-holder.ts <lock path>");
await acquireLock(path);
console.log(`locked ${process.pid}`);
setInterval(() => {}, 60_000);
