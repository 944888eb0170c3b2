/**
 * Asks `<url>/v1/health` every 20 ms from its own process (so the caller's own work never delays a probe) until
 * stdin closes, then prints each probe's status and milliseconds as one JSON line.
 * `bun tests/support/health-prober.ts http://127.0.0.1:PORT`
 */
const url = `${process.argv[2] ?? ""}/v1/health`;
let running = true;
void (async () => {
  for await (const _ of Bun.stdin.stream() as unknown as AsyncIterable<Uint8Array>);
  running = false;
})();
const probes: Array<{ status: number; ms: number }> = [];
while (running) {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  probes.push({ status: res.status, ms: performance.now() - started });
  await Bun.sleep(20);
}
console.log(JSON.stringify(probes));
export {};
