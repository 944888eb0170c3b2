/**
 * Checks an emission body against the schema AND core's domain rules, reporting every problem in ONE 422
 * (API.md §3): schema issues first, then domain issues on other paths. `fecha` defaults to today in Chile and may
 * not be in the future. A note's missing `referencia` is reason `required` (API.md §3); its default CodRef is the
 * reference check's (`resolve-references.ts`).
 */
import { Value } from "@sinclair/typebox/value";
import { taxDocumentTipo, type Issuer } from "@timbre/core";
import type { ValidationIssue } from "@timbre/core/errors";
import { validationError } from "../../http/errors.js";
import { issuesFromValueErrors } from "../../http/validation.js";
import { chileDate } from "./chile-time.js";
import type { EmitRequest } from "./schemas.js";
import { emitSchemaOf } from "./tipo-bodies.js";
import { familyOf, tipoIssues, toTipoInput } from "./tipo-inputs.js";
import { apiReferencePath, apiTransportPath, referencesOf } from "./to-document-input.js";

export type ResolvedRequest = EmitRequest & { fecha: string };

/**
 * Issues the server settles itself (`resolve-references.ts`): the default CodRef against own documents, and an
 * export note's reference to a tax document that is no export (REFERENCE_INVALID, API.md §3).
 */
function settledElsewhere(issue: ValidationIssue, body: EmitRequest): boolean {
  if (/^referencias\[\d+\]\.codigo$/.test(issue.path) && issue.reason === "required") return true;
  if (familyOf(body.tipo) !== "export") return false;
  if (/^referencias\[\d+\]\.tipo_doc$/.test(issue.path) && issue.reason === "not_allowed") return true;
  // "references no export" when it references another tax document: that is REFERENCE_INVALID.
  return issue.path === "referencia" && issue.reason === "required" && referencesOf(body).some((r) => taxDocumentTipo(r.tipo_doc) !== null);
}

function domainIssues(body: EmitRequest, fecha: string, issuer: Issuer): ValidationIssue[] {
  try {
    const input = toTipoInput({ ...body, fecha }, issuer, 1);
    return tipoIssues(input)
      .filter((i) => !settledElsewhere(i, body))
      .map((i) => ({ ...i, path: apiTransportPath(apiReferencePath(i.path, body)) }));
  } catch {
    return []; // a shape the schema already reports
  }
}

/** Returns the request with `fecha` resolved, or throws VALIDATION_ERROR listing every issue. */
export function readEmitRequest(body: unknown, issuer: Issuer, now: Date): ResolvedRequest {
  const issues: ValidationIssue[] = [];
  const schema = emitSchemaOf(body);
  const valid = Value.Check(schema, body);
  if (!valid) issues.push(...issuesFromValueErrors(Value.Errors(schema, body)));
  const today = chileDate(now);
  const object = typeof body === "object" && body !== null && !Array.isArray(body);
  const raw = object ? (body as EmitRequest) : null;
  const fecha = typeof raw?.fecha === "string" ? raw.fecha : today;
  if (typeof raw?.fecha === "string" && raw.fecha > today && !issues.some((i) => i.path === "fecha")) {
    issues.push({ path: "fecha", reason: "date_in_future", message: `the tax date may not be after today (${today}) in Chile` });
  }
  if (raw) {
    const seen = new Set(issues.map((i) => i.path));
    for (const issue of domainIssues(raw, fecha, issuer)) {
      if (seen.has(issue.path) || [...seen].some((p) => issue.path.startsWith(`${p}.`) || issue.path.startsWith(`${p}[`))) continue;
      seen.add(issue.path);
      issues.push(issue);
    }
  }
  if (issues.length > 0 || !valid || !raw) throw validationError(issues.length > 0 ? issues : [{ path: "body", reason: "type", message: "must be an object" }]);
  return { ...raw, fecha };
}
