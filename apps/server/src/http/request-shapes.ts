/**
 * What each `/v1` route accepts, read once from the built app's routes: its JSON body schema and its query
 * parameters. Elysia strips the fields a schema does not name before it validates (STACK.md), so the pipeline asks
 * here, on the parsed body, which fields the route does not know (API.md §1 "Unknown fields"). Routes whose use case
 * validates the body itself (`/dte/emit`, `/dte/batch`: no `body` hook, a documented request body) do it with the
 * same closed schemas; a route documenting no body takes none, so any field sent to it is unknown.
 */
import { Kind, Type, type TSchema } from "@sinclair/typebox";
import type { ValidationIssue } from "@timbre/core/errors";
import { unknownFieldIssues } from "./validation.js";

/** The parts of an Elysia route read here (`app.routes`). */
export interface RouteLike {
  method: string;
  path: string;
  hooks?: { body?: unknown; query?: unknown; detail?: unknown } | undefined;
}

interface RouteShape {
  /** The schema the body is checked against here, or null when the use case checks it. */
  body: TSchema | null;
  query: ReadonlySet<string>;
}

const NO_BODY = Type.Object({}, { additionalProperties: false });
/** The API's own routes; the docs and the dashboard are pages, not API calls. */
const API_ROUTE = /^\/v1\/(?!docs(\/|$)|openapi\.json$)/;

const isSchema = (value: unknown): value is TSchema => typeof value === "object" && value !== null && Kind in value;

function documentedQuery(detail: unknown): string[] {
  const parameters = (detail as { parameters?: unknown } | undefined)?.parameters;
  if (!Array.isArray(parameters)) return [];
  return parameters.flatMap((p: { in?: unknown; name?: unknown }) => (p.in === "query" && typeof p.name === "string" ? [p.name] : []));
}

function shapeOf(route: RouteLike): RouteShape {
  const hooks = route.hooks ?? {};
  const querySchema = isSchema(hooks.query) ? Object.keys((hooks.query as { properties?: object }).properties ?? {}) : [];
  const documentsBody = (hooks.detail as { requestBody?: unknown } | undefined)?.requestBody !== undefined;
  return {
    body: isSchema(hooks.body) ? hooks.body : documentsBody ? null : NO_BODY,
    query: new Set([...querySchema, ...documentedQuery(hooks.detail)]),
  };
}

export class RequestShapes {
  private readonly shapes = new Map<string, RouteShape>();

  /** Reads every API route of the built app (`app.routes`). */
  load(routes: readonly RouteLike[]): void {
    for (const route of routes) {
      if (API_ROUTE.test(route.path)) this.shapes.set(`${route.method.toUpperCase()} ${route.path}`, shapeOf(route));
    }
  }

  /** The fields of a parsed JSON body that the route does not take (reasons `unknown`, `not_allowed`). */
  unknownBodyFields(method: string, route: string, body: unknown): ValidationIssue[] {
    const schema = this.shapes.get(`${method} ${route}`)?.body;
    if (!schema || typeof body !== "object" || body === null || Array.isArray(body)) return [];
    return unknownFieldIssues(schema, body);
  }

  /** The first query parameter the route does not take, or null. */
  unknownQueryParameter(method: string, route: string, url: URL): string | null {
    const shape = this.shapes.get(`${method} ${route}`);
    if (!shape) return null;
    for (const name of url.searchParams.keys()) if (!shape.query.has(name)) return name;
    return null;
  }
}
