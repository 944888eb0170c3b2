/**
 * The global request pipeline, in order: request id → declared size → credential → rate limit → body parse
 * (actual size, JSON; the fields the route does not take noted) → [route: auth/permission (transform), validation,
 * with those fields among its issues] → unknown query parameters and body fields refused, idempotency
 * (beforeHandle) → handler → idempotency store → one log line. Every error goes through `toErrorResponse` (errors.ts).
 */
import { Elysia, ValidationError as ElysiaValidationError } from "elysia";
import type { ValidationIssue } from "@timbre/core/errors";
import type { Deps } from "../deps.js";
import { checkDeclaredLength, parseBody, readBody } from "./body.js";
import { bodyFingerprint } from "./body-fingerprint.js";
import { checkHeaderSize, HEADER_LIMIT_BYTES, runtimeHeaderLimitRaised } from "./header-limit.js";
import { businessScopeOf, requireCredential } from "./auth.js";
import { ApiError, invalidParameter, toErrorResponse, validationError } from "./errors.js";
import { beginIdempotent, finishIdempotent, idempotencyScope, releaseIdempotent, requestHash, validIdempotencyKey, type ResourceReplayer } from "./idempotency.js";
import { clientIp, consumeRateLimit, rateLimitBucket, rateLimitHeaders } from "./rate-limit.js";
import { requestIdFrom } from "./request-id.js";
import type { RequestShapes } from "./request-shapes.js";
import { resolveCredential } from "./resolve-credential.js";
import { setState, stateOf } from "./request-state.js";
import { issuesFromValueErrors, type RawValueError } from "./validation.js";
import { errorMessage } from "../log.js";

/** Not rate limited: health, API docs, and the dashboard's static pages (they are not API calls). */
const UNLIMITED = /^(\/v1\/(health|docs|openapi\.json)(\/|$)|\/dashboard(\/|$)|\/$)/;
/** The only routes that take a body without a credential. */
const PUBLIC_BODY_ROUTES = /^\/v1\/auth\/(register|login|refresh)\/?$/;
/** Each keyed request's body fingerprint (`body-fingerprint.ts`), taken when it is parsed. */
const fingerprints = new WeakMap<Request, string>();
/** Each request's body fields its route does not take (`request-shapes.ts`), found before Elysia strips them. */
const unknownFields = new WeakMap<Request, ValidationIssue[]>();

/** `shapes`: what each route accepts, loaded once the app's routes exist (`app.ts`). */
export function pipeline(deps: Deps, options: { replayResource?: ResourceReplayer; shapes?: RequestShapes } = {}) {
  if (!runtimeHeaderLimitRaised()) {
    deps.log.warn("http.header_limit_not_raised", { detail: `start through scripts/with-runtime.sh (npm start): requests with headers over the runtime's limit get a bare 431 instead of the API's envelope`, limit_bytes: HEADER_LIMIT_BYTES });
  }
  return new Elysia({ name: "timbre.pipeline", seed: deps.instanceId })
    .onRequest(async ({ request, set, server }) => {
      const url = new URL(request.url);
      const state = {
        id: requestIdFrom(request.headers),
        startedAt: performance.now(),
        ip: clientIp(request.headers, server?.requestIP(request)?.address, deps.config.trustProxy),
        credential: undefined,
        bodyHash: null,
        idempotency: null,
        status: null,
      };
      setState(request, state);
      set.headers["Request-Id"] = state.id;
      checkHeaderSize(request, url);
      checkDeclaredLength(request.headers, url.pathname);
      checkUrlText(url);
      if (UNLIMITED.test(url.pathname)) return;
      stateOf(request).credential = await resolveCredential(deps, request.headers);
      const bucket = rateLimitBucket(stateOf(request).credential, state.ip);
      const limit = await consumeRateLimit(deps.db, bucket, deps.config.rateLimitPerMinute, deps.now().getTime());
      Object.assign(set.headers, rateLimitHeaders(limit));
      if (!limit.allowed) {
        set.headers["Retry-After"] = String(limit.resetS);
        throw new ApiError("RATE_LIMITED", "too many requests", { retry_after: limit.resetS });
      }
    })
    .onParse(async ({ request, path, route }) => {
      // Routes behind a credential answer 401 before looking at the body (not 400/413/415/422).
      if (!PUBLIC_BODY_ROUTES.test(path)) requireCredential(request);
      const bytes = await readBody(request, path);
      const parsed = await parseBody(bytes, request.headers.get("content-type") ?? "", path);
      if (request.method === "POST" && request.headers.has("idempotency-key")) fingerprints.set(request, await bodyFingerprint(parsed));
      const unknown = options.shapes?.unknownBodyFields(request.method, route, parsed) ?? [];
      if (unknown.length > 0) unknownFields.set(request, unknown);
      return parsed;
    })
    .onBeforeHandle(async ({ request, path, route, set }) => {
      const parameter = options.shapes?.unknownQueryParameter(request.method, route, new URL(request.url)) ?? null;
      // An empty name ("?=1") is a parameter too, and as unknown as any other.
      if (parameter !== null) {
        throw invalidParameter(parameter, "unknown", `${parameter === "" ? "a parameter with no name" : parameter} is not a parameter of this route`);
      }
      const unknown = unknownFields.get(request);
      if (unknown) throw validationError(unknown);
      const key = request.headers.get("idempotency-key");
      if (request.method !== "POST" || key === null) return;
      if (!validIdempotencyKey(key)) throw invalidParameter("Idempotency-Key", "format", "Idempotency-Key must be 1–255 printable characters");
      const state = stateOf(request);
      const scope = idempotencyScope(state.credential, businessScopeOf(request));
      const hash = requestHash("POST", path, fingerprints.get(request) ?? null);
      let begun = await beginIdempotent(deps.db, deps.secrets.masterKey, {
        scope,
        key,
        hash,
        nowMs: deps.now().getTime(),
        owner: deps.liveness.owner(),
        isGone: deps.liveness.isGone,
      });
      if (begun.kind === "resource") {
        // The first request's process died after creating the resource: answer with it, never create a second one.
        const replay = options.replayResource ? await options.replayResource(begun.resourceId) : null;
        if (!replay) throw new ApiError("IDEMPOTENCY_IN_PROGRESS", "a request with this Idempotency-Key is still being processed");
        const body = JSON.stringify(replay.body);
        await finishIdempotent(deps.db, deps.secrets.masterKey, { scope, key }, replay.status, body);
        begun = { kind: "replay", status: replay.status, body };
      }
      if (begun.kind === "replay") {
        state.status = begun.status;
        set.status = begun.status;
        set.headers["Idempotent-Replayed"] = "true";
        set.headers["content-type"] = "application/json;charset=utf-8";
        return new Response(begun.body, { status: begun.status, headers: { "content-type": "application/json;charset=utf-8" } });
      }
      state.idempotency = begun.kind === "resume" ? { scope, key, resume: begun.resourceId } : { scope, key };
    })
    .onAfterHandle(async ({ request, set, response }) => {
      const state = stateOf(request);
      const status = typeof set.status === "number" ? set.status : 200;
      if (state.status === null) state.status = status;
      if (state.idempotency) {
        if (response instanceof Response) await releaseIdempotent(deps.db, state.idempotency);
        else await finishIdempotent(deps.db, deps.secrets.masterKey, state.idempotency, status, JSON.stringify(response));
        state.idempotency = null;
      }
    })
    .onError(async ({ request, error, code, set }) => {
      const state = stateOf(request);
      const { status, body } = toErrorResponse(fromElysia(code, error, unknownFields.get(request) ?? []), state.id);
      if (status >= 500) logFailure(deps, state.id, error);
      if (state.idempotency) {
        await finishIdempotent(deps.db, deps.secrets.masterKey, state.idempotency, status, JSON.stringify(body)).catch(() => {});
        state.idempotency = null;
      }
      const retryAfter = body.error.details?.retry_after;
      if (body.error.code === "RATE_LIMITED" && typeof retryAfter === "number") set.headers["Retry-After"] = String(retryAfter);
      state.status = status;
      set.status = status;
      return body;
    })
    .onAfterResponse(({ request, path, set }) => {
      const state = stateOf(request);
      const status = state.status ?? (typeof set.status === "number" ? set.status : 200);
      const ms = Math.round((performance.now() - state.startedAt) * 10) / 10;
      deps.log.info("request", { method: request.method, path, status, ms, request_id: state.id });
    })
    .as("global");
}

/** A NUL character in the path or a query parameter could never match stored text (PostgreSQL refuses it). */
function checkUrlText(url: URL): void {
  if (/%00/.test(url.pathname)) throw invalidParameter("path", "format", "the path contains a NUL character");
  for (const [name, value] of url.searchParams) {
    if (name.includes("\u0000") || value.includes("\u0000")) throw invalidParameter(name.replace(/\u0000/g, ""), "format", `${name.replace(/\u0000/g, "")} contains a NUL character`);
  }
}

/** `unknown`: the body's fields its route does not take, reported with the schema's other issues. */
function fromElysia(code: unknown, error: unknown, unknown: ValidationIssue[]): unknown {
  if (error instanceof ApiError) return error;
  // Elysia wraps what onParse throws (e.g. 413 on a body sent without Content-Length): keep our own error.
  if (code === "PARSE" && error instanceof Error && error.cause instanceof ApiError) return error.cause;
  if (code === "PARSE") return new ApiError("INVALID_JSON", "the request body is not valid JSON");
  if (code === "NOT_FOUND") return new ApiError("NOT_FOUND", "route not found");
  if (error instanceof ElysiaValidationError) {
    const issues: ValidationIssue[] = issuesFromValueErrors(error.all as RawValueError[]);
    if (error.type === "body") return validationError([...issues, ...unknown.filter((u) => !issues.some((i) => i.path === u.path))]);
    const first = issues[0];
    return invalidParameter(first?.path ?? error.type, first?.reason ?? "format", first ? `${first.path}: ${first.message}` : "invalid parameter");
  }
  return error;
}

function logFailure(deps: Deps, requestId: string, error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  // Driver errors carry the failed SQL and its parameters in their message: `errorMessage` keeps neither.
  const message = errorMessage(error);
  deps.log.error("unhandled error", { request_id: requestId, error: name, message: message.slice(0, 300) });
}
