/** Received documents (API.md §12): import, list, read, decide. `received:read` / `received:write`. */
import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok, OkList, pageParameters, paginated, pagination, readPage } from "../../http/envelope.js";
import { notFound } from "../../http/errors.js";
import { readBusinessRow } from "../businesses/business-row.js";
import { wakeWorkers } from "../../jobs/start-workers.js";
import { acceptReceived, claimReceived } from "./decide-received.js";
import { renderReceivedPdf } from "./render-received-pdf.js";
import { findReceived } from "./find-received.js";
import { importEnvelope } from "./import-envelope.js";
import { listInbox, listReceived } from "./list-received.js";
import { presentReceived } from "./present-received.js";
import { readReceivedUpload } from "./read-received-upload.js";
import { AcceptBody, ClaimBody, ImportJsonBody, ImportResults, InboxItem, listParameters, ReceivedDocument } from "./schemas.js";

const tags = ["received"];
const IdParams = Type.Object({ id: Type.String() });
const xmlRequestBody = {
  required: true,
  content: {
    "application/xml": { schema: { type: "string" as const, description: "the EnvioDTE file as received" } },
    "multipart/form-data": { schema: { type: "object" as const, required: ["file"], properties: { file: { type: "string" as const, format: "binary" }, reply_to: { type: "string" as const } } } },
    "application/json": { schema: ImportJsonBody },
  },
};

export function receivedRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.received", seed: deps.instanceId, prefix: "/v1/received" })
    .use(authPlugin(deps))
    .post(
      "",
      async ({ scope, body, set }) => {
        const upload = await readReceivedUpload(body);
        const business = scope.business ?? (await readBusinessRow(deps, scope.businessId));
        if (!business) throw notFound("business");
        const results = await importEnvelope(deps, business, scope.environment, upload.bytes, { source: "upload", replyTo: upload.replyTo, filename: upload.filename });
        wakeWorkers(deps, "webhooks");
        wakeWorkers(deps, "mail");
        set.status = 201;
        return ok({ results });
      },
      {
        permission: "received:write",
        business: true,
        response: { 201: Ok(ImportResults) },
        detail: { tags, summary: "Import an EnvioDTE a supplier sent (≤ 5 MiB): verified, kept per document, acknowledged to the emisor", requestBody: xmlRequestBody },
      },
    )
    .get(
      "",
      async ({ scope, query }) => {
        const page = readPage(query);
        const { items, total } = await listReceived(deps, scope, query, page);
        return paginated(items, pagination(page.page, page.limit, total));
      },
      { permission: "received:read", business: "read", response: { 200: OkList(ReceivedDocument) }, detail: { tags, summary: "List received documents, newest first", parameters: [...pageParameters, ...listParameters] } },
    )
    .get(
      "/inbox",
      async ({ scope, query }) => {
        const page = readPage(query);
        const { items, total } = await listInbox(deps, scope, page);
        return paginated(items, pagination(page.page, page.limit, total));
      },
      { permission: "received:read", business: "read", response: { 200: OkList(InboxItem) }, detail: { tags, summary: "Messages that could not be imported (30 days)", parameters: pageParameters } },
    )
    .get("/:id", async ({ scope, params }) => ok(presentReceived(await findReceived(deps, scope, params.id))), {
      permission: "received:read",
      business: "read",
      params: IdParams,
      response: { 200: Ok(ReceivedDocument) },
      detail: { tags, summary: "One received document" },
    })
    .get(
      "/:id/xml",
      async ({ scope, params }) => {
        const row = await findReceived(deps, scope, params.id);
        const utf8 = row.xml[0] === 0x3c && row.xml[1] === 0x3f; // only non-Latin-1 texts are stored with a declaration
        return new Response(Buffer.from(row.xml), {
          headers: {
            "Content-Type": `application/xml; charset=${utf8 ? "UTF-8" : "ISO-8859-1"}`,
            "Content-Disposition": `attachment; filename="DTE-${row.emisorRut}-${row.tipo}-${row.folio}.xml"`,
          },
        });
      },
      { permission: "received:read", business: "read", params: IdParams, detail: { tags, summary: "The DTE exactly as received" } },
    )
    .get(
      "/:id/pdf",
      async ({ scope, params, query }) => {
        const pdf = await renderReceivedPdf(deps, scope, params.id, query);
        return new Response(pdf.bytes as Uint8Array<ArrayBuffer>, {
          headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${pdf.filename}"`, "Content-Length": String(pdf.bytes.byteLength) },
        });
      },
      {
        permission: "received:read",
        business: "read",
        params: IdParams,
        detail: { tags, summary: "The received DTE printed (?formato=carta|termica)", parameters: [{ name: "formato", in: "query" as const, required: false, schema: { type: "string" as const, enum: ["carta", "termica"] } }] },
      },
    )
    .post(
      "/:id/aceptar",
      async ({ scope, params, body }) => {
        const row = await acceptReceived(deps, scope, params.id, body ?? {});
        wakeWorkers(deps, "webhooks");
        wakeWorkers(deps, "mail");
        return ok(presentReceived(row));
      },
      { permission: "received:write", business: true, parse: "json", body: Type.Optional(AcceptBody), params: IdParams, response: { 200: Ok(ReceivedDocument) }, detail: { tags, summary: "Accept (ACD; ERM with recibo_mercaderias) and answer the emisor" } },
    )
    .post(
      "/:id/reclamar",
      async ({ scope, params, body }) => {
        const row = await claimReceived(deps, scope, params.id, body);
        wakeWorkers(deps, "webhooks");
        wakeWorkers(deps, "mail");
        return ok(presentReceived(row));
      },
      { permission: "received:write", business: true, parse: "json", body: ClaimBody, params: IdParams, response: { 200: Ok(ReceivedDocument) }, detail: { tags, summary: "Claim (RCD, RFP or RFT) with a reason and answer the emisor" } },
    );
}
