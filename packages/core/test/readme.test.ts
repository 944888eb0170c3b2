// The README's first example is a program a developer will paste: run it as written and check what it prints.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

function firstTypeScriptBlock(markdown: string): string {
  const match = /```ts\n([\s\S]*?)\n```/.exec(markdown);
  if (!match) throw new Error("the README has no ```ts block");
  return match[1]!;
}

test("the README's factura example runs and prints the totals worked out by hand", async () => {
  const code = firstTypeScriptBlock(readFileSync(join(packageDir, "README.md"), "utf8"));
  // Inside the package, so that `@timbre/core` resolves the way it does for a user of the workspace.
  const dir = mkdtempSync(join(packageDir, "test", ".readme-"));
  try {
    writeFileSync(join(dir, "example.ts"), code);
    const child = Bun.spawn([process.execPath, "example.ts"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(stderr).toBe("");
    expect(exitCode).toBe(0);
    // 3 × 12 990 = 38 970; 2.5 × 1 490.4 = 3 726 less 10 % (372.6 → 373) = 3 353; neto 42 323; IVA 19 % = 8 041.37 → 8 041.
    expect(stdout).toMatch(/^T33F1: neto 42323 \+ IVA 8041 = 50364; \d+ bytes of XML, \d+ of envelope, \d+ of PDF\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
