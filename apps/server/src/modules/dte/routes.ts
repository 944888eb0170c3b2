/** `/v1/dte` (API.md §6.3). Emission bodies are validated by the use cases (schema + domain rules in one 422). */
import { Type, type TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { idempotencyScope } from "../../http/idempotency.js";
import { stateOf } from "../../http/request-state.js";
import { ok, Ok, OkList, pageParameters, paginated, pagination, readPage } from "../../http/envelope.js";
import { assertValid } from "../../http/validation.js";
import { annulDocument } from "./annul-document.js";
import { checkBatch } from "./check-batch.js";
import { emitBatch } from "./emit-batch.js";
import { emitDocument } from "./emit-document.js";
import { getAcceptance } from "./get-acceptance.js";
import { getDocumentXml } from "./get-document-xml.js";
import { getDocument, getDocumentStatus, readFlag } from "./get-document.js";
import { listDocuments } from "./list-documents.js";
import { previewDocument, previewPdf } from "./preview-document.js";
import { renderDocumentPdf } from "./render-document-pdf.js";
import { AcceptanceSchema, AnularBody, BatchBody, BatchBodyReference, BatchCheckResult, BatchResult, Dte, DteDetail, DteStatus, EnviarBody, IntercambioSchema, SalesSummarySchema } from "./schemas.js";
import { sendDocument } from "./send-document.js";
import { AnyEmitBody } from "./tipo-bodies.js";
import { summarizeDocuments } from "./summarize-documents.js";

const tags = ["dte"];
const IdParams = Type.Object({ id: Type.String() });
const json = (schema: TSchema, required = true) => ({ required, content: { "application/json": { schema } } });
const flag = (name: string) => ({ name, in: "query" as const, required: false, schema: { type: "boolean" as const } });
const listParameters = ["tipo", "desde", "hasta", "estado", "folio", "receptor_rut", "aceptacion"].map((name) => ({ name, in: "query" as const, required: false, schema: { type: "string" as const } }));

function download(bytes: Uint8Array, contentType: string, disposition: string): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: { "Content-Type": contentType, "Content-Disposition": disposition, "Content-Length": String(bytes.byteLength) } });
}

export function dteRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.dte", seed: deps.instanceId, prefix: "/v1/dte" })
    .use(authPlugin(deps))
    .post(
      "/emit",
      async ({ scope, body, set, request }) => {
        const emitted = await emitDocument(deps, scope, body, stateOf(request).idempotency);
        set.status = emitted.status;
        return ok(emitted.data);
      },
      { permission: "dte:write", business: true, response: { 201: Ok(Dte), 202: Ok(Dte) }, detail: { tags, summary: "Emit a DTE (201 ENVIADO, 202 PENDIENTE)", requestBody: json(AnyEmitBody) } },
    )
    .post(
      "/batch",
      async ({ scope, body, request }) => {
        const state = stateOf(request);
        return ok(await emitBatch(deps, scope, assertValid(BatchBody, body).documents, { idempotency: state.idempotency, keyScope: idempotencyScope(state.credential, scope) }));
      },
      { permission: "dte:write", business: true, response: { 200: Ok(BatchResult) }, detail: { tags, summary: "Emit up to 500 DTEs (one request for the rate limit)", requestBody: json(BatchBodyReference) } },
    )
    .post(
      "/batch/preview",
      async ({ scope, body, request }) => ok(await checkBatch(deps, scope, assertValid(BatchBody, body).documents, idempotencyScope(stateOf(request).credential, scope))),
      {
        permission: "dte:write",
        business: true,
        response: { 200: Ok(BatchCheckResult) },
        detail: { tags, summary: "Check up to 500 DTEs as /dte/batch would, without emitting (extension): totals or errors per document, folios included", requestBody: json(BatchBodyReference) },
      },
    )
    .post(
      "/preview",
      async ({ scope, body, query }) => {
        const format = query.format ?? "json";
        if (format === "pdf") return download(await previewPdf(deps, scope, body), "application/pdf", 'inline; filename="DTE-preview.pdf"');
        if (format !== "json") throw new Error("unreachable");
        return ok(await previewDocument(deps, scope, body));
      },
      {
        permission: "dte:write",
        business: true,
        query: Type.Object({ format: Type.Optional(Type.Union([Type.Literal("json"), Type.Literal("pdf")])) }),
        detail: { tags, summary: "Totals and unsigned XML (or ?format=pdf) without taking a folio", requestBody: json(AnyEmitBody) },
      },
    )
    .post(
      "/:id/anular",
      async ({ scope, params, body, set, request }) => {
        const emitted = await annulDocument(deps, scope, params.id, body, stateOf(request).idempotency);
        set.status = emitted.status;
        return ok(emitted.data);
      },
      { permission: "dte:write", business: true, params: IdParams, response: { 201: Ok(Dte), 202: Ok(Dte) }, detail: { tags, summary: "Annul a DTE with a credit note (61, CodRef 1)", requestBody: json(AnularBody, false) } },
    )
    .post(
      "/:id/enviar",
      async ({ scope, params, body, set }) => {
        const intercambio = await sendDocument(deps, scope, params.id, assertValid(EnviarBody, body ?? {}));
        set.status = 202;
        return ok(intercambio);
      },
      { permission: "dte:write", business: true, params: IdParams, response: { 202: Ok(IntercambioSchema) }, detail: { tags, summary: "Deliver the document (again) to its receivers or to one address", requestBody: json(EnviarBody, false) } },
    )
    .get(
      "",
      async ({ scope, query }) => {
        const page = readPage(query);
        const { items, total } = await listDocuments(deps, scope, page, query);
        return paginated(items, pagination(page.page, page.limit, total));
      },
      { permission: "dte:read", business: "read", response: { 200: OkList(Dte) }, detail: { tags, summary: "List DTEs, newest first", parameters: [...pageParameters, ...listParameters] } },
    )
    .get("/resumen", async ({ scope, query }) => ok(await summarizeDocuments(deps, scope, query)), {
      permission: "dte:read",
      business: "read",
      response: { 200: Ok(SalesSummarySchema) },
      detail: {
        tags,
        summary: "Sales of a period by tipo, with the débito fiscal (IVA of 33/39/56 less 61); rejected documents left out",
        parameters: ["desde", "hasta"].map((name) => ({ name, in: "query" as const, required: true, schema: { type: "string" as const, format: "date" } })),
      },
    })
    .get("/:id", async ({ scope, params }) => ok(await getDocument(deps, scope, params.id)), {
      permission: "dte:read",
      business: "read",
      params: IdParams,
      response: { 200: Ok(DteDetail) },
      detail: { tags, summary: "One DTE with items, references and history" },
    })
    .get("/:id/status", async ({ scope, params, query }) => ok(await getDocumentStatus(deps, scope, params.id, readFlag(query, "refresh"))), {
      permission: "dte:read",
      business: "read",
      params: IdParams,
      response: { 200: Ok(DteStatus) },
      detail: { tags, summary: "SII status (?refresh=true asks the SII now)", parameters: [flag("refresh")] },
    })
    .get("/:id/aceptacion", async ({ scope, params, query }) => ok(await getAcceptance(deps, scope, params.id, readFlag(query, "refresh"))), {
      permission: "dte:read",
      business: "read",
      params: IdParams,
      response: { 200: Ok(AcceptanceSchema) },
      detail: { tags, summary: "The receiver's acceptance or claim of a factura in the SII's registry (extension; ?refresh=true asks the SII now)", parameters: [flag("refresh")] },
    })
    .get(
      "/:id/pdf",
      async ({ scope, params, query }) => {
        const pdf = await renderDocumentPdf(deps, scope, params.id, query);
        return download(pdf.bytes, "application/pdf", `inline; filename="${pdf.filename}"`);
      },
      {
        permission: "dte:read",
        business: "read",
        params: IdParams,
        detail: {
          tags,
          summary: "Printed representation (?formato=carta|termica, ?cedible=true)",
          parameters: [{ name: "formato", in: "query" as const, required: false, schema: { type: "string" as const, enum: ["carta", "termica"] } }, flag("cedible")],
        },
      },
    )
    .get(
      "/:id/xml",
      async ({ scope, params, query }) => {
        const xml = await getDocumentXml(deps, scope, params.id, query);
        return download(xml.bytes, "application/xml; charset=ISO-8859-1", `inline; filename="${xml.filename}"`);
      },
      { permission: "dte:read", business: "read", params: IdParams, detail: { tags, summary: "Signed XML as stored (?envio=true: the uploaded envelope)", parameters: [flag("envio")] } },
    );
}
