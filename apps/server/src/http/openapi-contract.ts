/**
 * Completes the OpenAPI document Elysia generates from the route schemas into the API's contract: each operation's
 * description, request examples, query parameters, binary responses, and every error response it can answer with
 * its codes (API.md §3), plus the headers every response carries. The words live next to each module (`docs.ts`),
 * keyed by `METHOD /path` as the document names operations.
 */
import { HTTP_STATUS, type ApiErrorCode } from "./errors.js";

type Json = Record<string, unknown>;

/** Who may call: nobody needs a credential, any valid one, or one holding this permission (API.md §2). */
export type Access = "public" | "any" | `${string}:${"read" | "write"}`;

export interface OperationDoc {
  access: Access;
  /** Replaces the route's summary when given. */
  summary?: string;
  /** Markdown; names API.md sections it follows ("API.md §6.3"). */
  description: string;
  /** Codes this operation answers besides the ones every call of its kind can (see `commonCodes`). */
  errors?: ApiErrorCode[];
  /** Query parameters the route reads by hand (added; same name replaces). */
  query?: Json[];
  /** Request body examples by name (`{ summary, value }`). */
  examples?: Record<string, { summary: string; description?: string; value: unknown }>;
  /** Success responses the route schema cannot state (files): merged over the generated ones. */
  responses?: Record<string, Json>;
  /** Takes a JSON body (errors INVALID_JSON, PAYLOAD_TOO_LARGE, VALIDATION_ERROR). */
  jsonBody?: boolean;
}

export type ContractDocs = Record<string, OperationDoc>;

/** What the codes mean, said once for every response that declares them. */
const CODE_MEANING: Record<ApiErrorCode, string> = {
  INVALID_JSON: "the body is not JSON, or not sent as `application/json`",
  INVALID_PARAMETER: "a query or path parameter is wrong or unknown; `details.field`, `details.reason`",
  UNAUTHORIZED: "no credential, an unknown or revoked key, or an expired session",
  INVALID_CREDENTIALS: "wrong email or password",
  FORBIDDEN: "the credential lacks the permission; `details.required_permission`",
  NOT_FOUND: "no such resource visible to this credential (another business's is not found either)",
  CONFLICT: "a duplicate or a state that forbids it; `details.reason`",
  IDEMPOTENCY_IN_PROGRESS: "a request with this `Idempotency-Key` is still running",
  PAYLOAD_TOO_LARGE: "the body is over the limit (1 MiB JSON, 5 MiB uploads)",
  UNSUPPORTED_MEDIA_TYPE: "an upload in a format this endpoint does not take",
  VALIDATION_ERROR: "a field is missing or wrong; `details.errors[]` lists every problem as `{ field, reason, message }`, `details.field`/`details.reason` repeat the first",
  IDEMPOTENCY_KEY_REUSED: "this `Idempotency-Key` was used with a different body",
  CERTIFICATE_REQUIRED: "the business has no signing certificate yet",
  CERTIFICATE_INVALID: "the certificate is not PKCS#12, the password is wrong, it has no RSA key or it is expired; `details.reason`",
  CAF_INVALID: "the CAF is malformed, not signed by the SII of this environment, for another RUT or an unsupported tipo; `details.reason`",
  FOLIOS_EXHAUSTED: "no active numeration (CAF) with free folios for this tipo and environment",
  REFERENCE_INVALID: "the referenced document cannot be referenced this way (rejected by the SII, already annulled)",
  BUSINESS_NOT_AUTHORIZED: "live emission for a business without its SII resolution",
  RATE_LIMITED: "over the request rate; wait `Retry-After` seconds (`details.retry_after`)",
  HEADERS_TOO_LARGE: "the request headers are too large",
  INTERNAL_ERROR: "a fault of the server; never carries internals",
  UNAVAILABLE: "the database (or the SII for calls that need it now) cannot be reached; retry later",
  ENVELOPE_INVALID: "a received envelope that cannot be read, is not schema-valid, is badly signed or is addressed to another RUT; `details.reason`; nothing is kept",
  SII_REFUSED: "the SII's registry refused the decision; `details` carries its code",
};

/** The codes any call of this shape can answer (API.md §1–§5). */
function commonCodes(method: string, path: string, doc: OperationDoc): ApiErrorCode[] {
  const codes: ApiErrorCode[] = ["INVALID_PARAMETER"];
  if (doc.access !== "public" || path !== "/v1/health") codes.push("RATE_LIMITED");
  if (doc.access !== "public") codes.push("UNAUTHORIZED");
  if (doc.access !== "public" && doc.access !== "any") codes.push("FORBIDDEN");
  if (path.includes("{id}")) codes.push("NOT_FOUND");
  if (doc.jsonBody) codes.push("INVALID_JSON", "PAYLOAD_TOO_LARGE", "VALIDATION_ERROR");
  if (method === "post") codes.push("IDEMPOTENCY_IN_PROGRESS", "IDEMPOTENCY_KEY_REUSED");
  codes.push("INTERNAL_ERROR", "UNAVAILABLE");
  return codes;
}

const ERROR_SCHEMA_REF = { $ref: "#/components/schemas/Error" };

const COMPONENTS = {
  schemas: {
    Error: {
      type: "object",
      description: "The error envelope of every failed call (API.md §3). Branch on `error.code`, never on `message`.",
      required: ["success", "error"],
      properties: {
        success: { const: false },
        error: {
          type: "object",
          required: ["code", "message", "request_id"],
          properties: {
            code: { type: "string", enum: Object.keys(HTTP_STATUS) },
            message: { type: "string" },
            details: { type: "object", additionalProperties: true, description: "`field`, `reason`, `errors[]` on validation errors; `required_permission` on 403; `retry_after` on 429" },
            request_id: { type: "string", description: "the `Request-Id` header of this response (`req_…`)" },
          },
        },
      },
    },
  },
  headers: {
    RequestId: { description: "This request's id (`req_…`); error bodies repeat it. Quote it when asking for help.", schema: { type: "string" } },
    IdempotentReplayed: { description: "`true` when this is the stored answer to an earlier request with the same `Idempotency-Key` (API.md §5): nothing was done again.", schema: { type: "string", enum: ["true"] } },
    RetryAfter: { description: "Seconds to wait before calling again.", schema: { type: "integer" } },
  },
  parameters: {
    IdempotencyKey: {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description: "1–255 printable characters. The same key with the same body within 24 h replays the first answer (header `Idempotent-Replayed: true`) and consumes no folio; with another body it is 422 `IDEMPOTENCY_KEY_REUSED` (API.md §5).",
      schema: { type: "string", minLength: 1, maxLength: 255 },
    },
    BusinessId: {
      name: "X-Business-Id",
      in: "header",
      required: false,
      description: "Sessions only: the business to act for (`biz_…`). API keys belong to one business and need no header (API.md §2).",
      schema: { type: "string" },
    },
    Environment: {
      name: "X-Environment",
      in: "header",
      required: false,
      description: "Sessions only: `test` (default) or `live`. A key's environment is its prefix (`sk_test_`, `sk_live_`).",
      schema: { type: "string", enum: ["test", "live"] },
    },
  },
};

function errorResponses(codes: ApiErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(HTTP_STATUS[code], [...(byStatus.get(HTTP_STATUS[code]) ?? []), code]);
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers: Json = { "Request-Id": { $ref: "#/components/headers/RequestId" } };
    if (status === 429) headers["Retry-After"] = { $ref: "#/components/headers/RetryAfter" };
    responses[String(status)] = {
      description: list.map((code) => `\`${code}\`: ${CODE_MEANING[code]}`).join(". ") + ".",
      headers,
      content: { "application/json": { schema: ERROR_SCHEMA_REF, example: { success: false, error: { code: list[0], message: CODE_MEANING[list[0]!].split(";")[0], request_id: "req_01jf3k9v8m2r4t6y8a0c2e4g6j" } } } },
    };
  }
  return responses;
}

function completeOperation(method: string, path: string, operation: Json, doc: OperationDoc): Json {
  const out: Json = { ...operation, description: doc.description };
  if (doc.summary) out["summary"] = doc.summary;
  if (doc.access === "public") out["security"] = [];

  const parameters = [...((operation["parameters"] as Json[] | undefined) ?? [])];
  for (const parameter of doc.query ?? []) {
    const at = parameters.findIndex((p) => p["name"] === parameter["name"] && p["in"] === "query");
    const complete = { in: "query", required: false, ...parameter };
    if (at >= 0) parameters[at] = complete;
    else parameters.push(complete);
  }
  if (method === "post") parameters.push({ $ref: "#/components/parameters/IdempotencyKey" });
  if (path.startsWith("/v1/dte") || path.startsWith("/v1/events")) {
    parameters.push({ $ref: "#/components/parameters/BusinessId" }, { $ref: "#/components/parameters/Environment" });
  }
  if (parameters.length > 0) out["parameters"] = parameters;

  const body = operation["requestBody"] as { content?: Record<string, Json> } | undefined;
  if (doc.examples) {
    const json = body?.content?.["application/json"];
    if (!json) throw new Error(`${method.toUpperCase()} ${path}: examples given but no JSON body`);
    json["examples"] = doc.examples;
  }

  const successHeaders: Json = { "Request-Id": { $ref: "#/components/headers/RequestId" } };
  if (method === "post") successHeaders["Idempotent-Replayed"] = { $ref: "#/components/headers/IdempotentReplayed" };
  const responses: Record<string, Json> = { ...((operation["responses"] as Record<string, Json> | undefined) ?? {}), ...doc.responses };
  for (const [status, response] of Object.entries(responses)) {
    responses[status] = { ...response, headers: { ...successHeaders, ...(response["headers"] as Json | undefined) } };
  }
  Object.assign(responses, errorResponses([...commonCodes(method, path, doc), ...(doc.errors ?? [])]));
  out["responses"] = responses;
  return out;
}

/**
 * The generator writes a TypeBox union of number literals (`tipo`: 33 | 34 | …) as `{ type: "string", enum: [33, …] }`:
 * a schema no value satisfies. Such enums are integers; fixed in place.
 */
function numberEnumsAsIntegers(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(numberEnumsAsIntegers);
  if (!node || typeof node !== "object") return;
  const schema = node as Json;
  const values = schema["enum"];
  if (schema["type"] === "string" && Array.isArray(values) && values.length > 0 && values.every((v) => Number.isInteger(v))) schema["type"] = "integer";
  for (const value of Object.values(schema)) numberEnumsAsIntegers(value);
}

/** `METHOD /path` of every operation of a document. */
export function operationKeys(document: Json): string[] {
  const paths = document["paths"] as Record<string, Record<string, Json>>;
  return Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
}

/**
 * The generated document plus the docs of every operation. An operation without docs (a route added without its
 * `docs.ts` entry) keeps its generated form with the errors of any authenticated call; the contract test fails on it.
 */
export function completeContract(document: Json, docs: ContractDocs): Json {
  numberEnumsAsIntegers(document);
  const paths = document["paths"] as Record<string, Record<string, Json>>;
  const completed: Record<string, Record<string, Json>> = {};
  for (const [path, operations] of Object.entries(paths)) {
    completed[path] = {};
    for (const [method, operation] of Object.entries(operations)) {
      const doc = docs[`${method.toUpperCase()} ${path}`] ?? { access: "any", description: String(operation["summary"] ?? ""), jsonBody: method === "post" || method === "put" };
      completed[path][method] = completeOperation(method, path, operation, doc);
    }
  }
  const components = (document["components"] as Json | undefined) ?? {};
  return {
    ...document,
    paths: completed,
    components: {
      ...components,
      schemas: { ...(components["schemas"] as Json | undefined), ...COMPONENTS.schemas },
      headers: COMPONENTS.headers,
      parameters: COMPONENTS.parameters,
    },
  };
}
