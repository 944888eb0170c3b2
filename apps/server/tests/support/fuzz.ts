/**
 * Fuzzing helpers: nasty values, mutations of valid bodies (wrong types, huge strings, unicode, null bytes,
 * prototype-pollution keys, deep nesting), broken JSON texts, odd query strings, and the envelope check every
 * answer must pass (API.md §1 and §3). Cases are generated with fast-check from a fixed seed and all run, so a
 * failure list shows every distinct problem, not only the first one.
 */
import fc from "fast-check";

/** API.md §3: the documented codes and their HTTP status (written out here, independent of errors.ts). */
export const DOCUMENTED: Record<string, number> = {
  INVALID_JSON: 400,
  INVALID_PARAMETER: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  CERTIFICATE_REQUIRED: 422,
  CERTIFICATE_INVALID: 422,
  CAF_INVALID: 422,
  FOLIOS_EXHAUSTED: 422,
  REFERENCE_INVALID: 422,
  BUSINESS_NOT_AUTHORIZED: 422,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

export const INJECTIONS = [
  "'; drop table users; --",
  "1' OR '1'='1",
  "\"; DELETE FROM documents; --",
  "\r\nSet-Cookie: x=1",
  "%0d%0aSet-Cookie:%20x=1",
  "${jndi:ldap://127.0.0.1/x}",
  "<script>alert(1)</script>",
  "]]><!ENTITY x SYSTEM \"file:///etc/passwd\">",
  "{{7*7}}",
  "../../../../etc/passwd",
];

const HUGE = "x".repeat(200_000);
const deepArray = (depth: number): unknown => JSON.parse("[".repeat(depth) + "]".repeat(depth));
const deepObject = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

/** One nasty JSON value. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null, true, false, 0, -1, -0.5, 1e9, 1e21, -1e308, 1e308, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER,
    0.1 + 0.2, 1e-320, "", " ", "\u0000", "a\u0000b", "\uD800", "\uDFFF\uD800", "😀".repeat(40), "ñandú ÁÉÍÓÚ €", "\u202Eevil",
    "𝕏".repeat(100), HUGE, "1e9", "-1", "NaN", "null", "true", "[]", "{}", "2026-02-30", "0000-00-00", "76192083-9", "76192083-0",
    [], {}, [null], [[[]]], { "": "" }, { $gt: "" }, deepArray(1000), deepObject(500),
    ...INJECTIONS,
  ),
  fc.string({ unit: "binary", maxLength: 64 }),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 3 }),
);

export type Mutation =
  | { kind: "set"; path: number; value: unknown }
  | { kind: "delete"; path: number }
  | { kind: "pollute"; path: number; key: "__proto__" | "constructor" | "prototype"; value: unknown }
  | { kind: "extra"; path: number; key: string; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("set" as const), path: fc.nat(), value: nastyValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("delete" as const), path: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("pollute" as const),
      path: fc.nat(),
      key: fc.constantFrom("__proto__" as const, "constructor" as const, "prototype" as const),
      value: fc.constantFrom<unknown>({ polluted: true, isAdmin: true }, { prototype: { polluted: true } }, "x", null),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("extra" as const), path: fc.nat(), key: fc.string({ maxLength: 12 }), value: nastyValue }) },
);

type Container = Record<string, unknown> | unknown[];

/** Every container of `value` with its key slots: [parent, key] pairs (the root's slot is [null, ""]). */
function slots(value: unknown): [Container | null, string | number][] {
  const out: [Container | null, string | number][] = [[null, ""]];
  const walk = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== "object") return;
    const c = v as Container;
    for (const key of Object.keys(c)) {
      out.push([c, Array.isArray(c) ? Number(key) : key]);
      walk((c as Record<string, unknown>)[key], depth + 1);
    }
  };
  walk(value, 0);
  return out;
}

function containers(value: unknown): Container[] {
  const out: Container[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== "object") return;
    out.push(v as Container);
    for (const child of Object.values(v as Record<string, unknown>)) walk(child, depth + 1);
  };
  walk(value, 0);
  return out;
}

/** Applies mutations to a deep copy of `body`; pollution keys become own properties (as JSON.parse makes them). */
export function mutate(body: unknown, mutations: Mutation[]): unknown {
  let root: unknown = structuredClone(body);
  for (const m of mutations) {
    if (m.kind === "set" || m.kind === "delete") {
      const all = slots(root);
      const [parent, key] = all[m.path % all.length] ?? [null, ""];
      if (parent === null) {
        if (m.kind === "set") root = structuredClone(m.value);
        continue;
      }
      if (m.kind === "delete") {
        if (Array.isArray(parent)) parent.splice(Number(key), 1);
        else delete parent[key as string];
      } else (parent as Record<string | number, unknown>)[key] = structuredClone(m.value);
    } else {
      const all = containers(root).filter((c) => !Array.isArray(c));
      const target = all[m.path % Math.max(1, all.length)];
      if (!target) continue;
      Object.defineProperty(target, m.key, { value: structuredClone(m.value), enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

/** A JSON text that is not valid JSON (or not JSON at all). */
export function brokenJson(valid: string): fc.Arbitrary<string> {
  // An empty body is an absent body ({}), and a BOM before JSON is allowed (RFC 8259 §8.1): neither is broken.
  return fc.oneof(
    fc.integer({ min: 1, max: Math.max(1, valid.length - 1) }).map((n) => valid.slice(0, n)),
    fc.constantFrom("{", "}", "[", "{\"a\":}", "{'a':1}", "{a:1}", "nul", "tru", "{\"a\":1,}", "[1,2", "\"unterminated", "{\"a\":\"\\x\"}", "\u0000", "NaN", "Infinity", "{\"a\":01}", "\uFEFF\uFEFF{}", "[".repeat(100_000), "{\"a\":\"" + "\\u00".repeat(10) + "\"}"),
    fc.string({ unit: "binary", minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== "" && !isJson(s.replace(/^\uFEFF/, ""))),
    fc.tuple(fc.nat({ max: valid.length }), fc.string({ minLength: 1, maxLength: 3 })).map(([i, junk]) => valid.slice(0, i) + junk + valid.slice(i)).filter((s) => !isJson(s.replace(/^\uFEFF/, ""))),
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Odd query strings for a list route with the given filter names. */
export function oddQuery(names: string[]): fc.Arbitrary<string> {
  const name = fc.constantFrom(...names, "page", "limit", "__proto__", "constructor", "", "a[b]", "x");
  const value = fc.oneof(
    fc.constantFrom("1e9", "-1", "0", "1", "100", "101", "1.5", "99999999999", "9999999999", "2147483648", "-2147483649", "00001", "0x10", "", " ", "%00", "%0d%0a",
      "2026-02-30", "2026-13-01", "2026-11-22", "0000-01-01", "9999-12-31", "2026-1-1", "ACEPTADO", "aceptado", "33", "76192083-9", "76.192.083-9", "1-9",
      "NaN", "Infinity", "true", "[]", "{}", "%E2%82%AC", "%F0%9F%98%80", "%C3%28", "%", "%%", "%ZZ", "%2e%2e%2f", "a".repeat(5000)),
    fc.constantFrom(...INJECTIONS).map(encodeURIComponent),
    fc.string({ unit: "binary", maxLength: 20 }).map(encodeURIComponent),
    fc.integer().map(String),
  );
  const pair = fc.tuple(name, value).map(([n, v]) => `${encodeURIComponent(n)}=${v}`);
  const arrayPair = fc.tuple(name, value, value).map(([n, a, b]) => `${encodeURIComponent(n)}=${a}&${encodeURIComponent(n)}=${b}`);
  const bracket = fc.tuple(name, value).map(([n, v]) => `${encodeURIComponent(n)}[]=${v}&${encodeURIComponent(n)}[x]=${v}`);
  return fc.array(fc.oneof(pair, pair, arrayPair, bracket), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("&"));
}

/** What is wrong with one answer, or null. `binaryOk`: 2xx non-JSON downloads are fine. */
export function envelopeProblem(res: { status: number; headers: Headers; text: string }, binaryOk = false): string | null {
  if (res.status >= 500) return `status ${res.status}: ${res.text.slice(0, 300)}`;
  const requestId = res.headers.get("request-id");
  if (!requestId) return "no Request-Id header";
  const type = res.headers.get("content-type") ?? "";
  if (binaryOk && res.status < 300 && !/json/.test(type)) return null;
  let json: unknown;
  try {
    json = JSON.parse(res.text);
  } catch {
    return `not JSON (status ${res.status}, ${type}): ${res.text.slice(0, 120)}`;
  }
  if (typeof json !== "object" || json === null) return "not an object";
  const body = json as Record<string, unknown>;
  const keys = Object.keys(body).sort().join(",");
  if (body.success === true) {
    if (res.status >= 300) return `success:true with status ${res.status}`;
    return keys === "data,success" || keys === "data,pagination,success" ? null : `top-level keys ${keys}`;
  }
  if (body.success !== false || keys !== "error,success") return `top-level keys ${keys}`;
  const error = body.error as Record<string, unknown> | null;
  if (typeof error !== "object" || error === null) return "error is not an object";
  const code = String(error.code);
  if (!(code in DOCUMENTED)) return `undocumented code ${code}`;
  if (DOCUMENTED[code] !== res.status) return `${code} with status ${res.status}`;
  if (error.request_id !== requestId) return `error.request_id ${String(error.request_id)} ≠ header ${requestId}`;
  if (typeof error.message !== "string" || error.message === "") return "no message";
  return null;
}

/** Deterministic samples of an arbitrary. */
export function cases<T>(arb: fc.Arbitrary<T>, numRuns: number, seed: number): T[] {
  return fc.sample(arb, { numRuns, seed });
}

/** Runs `run` over every case with bounded concurrency; collects distinct problems (at most `max`). */
export async function runCases<T>(items: T[], concurrency: number, run: (item: T, index: number) => Promise<string | null>, max = 20): Promise<string[]> {
  const problems = new Map<string, string>();
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as T;
      const problem = await run(item, index);
      if (problem !== null && problems.size < max) {
        const head = problem.slice(0, 160);
        if (!problems.has(head)) problems.set(head, `${problem} ⟵ case ${index}: ${preview(item)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return [...problems.values()];
}

export function preview(value: unknown): string {
  try {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
  } catch {
    return String(value);
  }
}

/** FUZZ_SCALE multiplies every case count (bench runs use 10 or more). */
export const SCALE = Math.max(0.05, Number(process.env.FUZZ_SCALE ?? "1") || 1);
export const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
