import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok, OkList, pageParameters, paginated, readPage, pagination } from "../../http/envelope.js";
import { createBusiness } from "./create-business.js";
import { deleteBusiness } from "./delete-business.js";
import { getBusiness } from "./get-business.js";
import { listBusinesses } from "./list-businesses.js";
import { readCertificateUpload } from "./read-certificate-upload.js";
import { rotateWebhookSecret } from "./rotate-webhook-secret.js";
import { Business, CertificateJsonBody, CreateBusinessBody, Deleted, UpdateBusinessBody, WebhookSecret } from "./schemas.js";
import { updateBusiness } from "./update-business.js";
import { uploadCertificate } from "./upload-certificate.js";

const tags = ["businesses"];
const IdParams = Type.Object({ id: Type.String() });

export function businessRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.businesses", seed: deps.instanceId, prefix: "/v1/businesses" })
    .use(authPlugin(deps))
    .get(
      "",
      async ({ auth, query }) => {
        const page = readPage(query);
        const { items, total } = await listBusinesses(deps, auth, page);
        return paginated(items, pagination(page.page, page.limit, total));
      },
      { permission: "businesses:read", response: { 200: OkList(Business) }, detail: { tags, summary: "List businesses", parameters: pageParameters } },
    )
    .post(
      "",
      async ({ auth, body, set }) => {
        const created = await createBusiness(deps, auth, body);
        set.status = 201;
        return ok(created);
      },
      { permission: "businesses:write", parse: "json", body: CreateBusinessBody, response: { 201: Ok(Business) }, detail: { tags, summary: "Register a business" } },
    )
    .get("/:id", async ({ auth, params }) => ok(await getBusiness(deps, auth, params.id)), {
      permission: "businesses:read",
      params: IdParams,
      response: { 200: Ok(Business) },
      detail: { tags, summary: "One business" },
    })
    .put("/:id", async ({ auth, params, body }) => ok(await updateBusiness(deps, auth, params.id, body)), {
      permission: "businesses:write",
      params: IdParams,
      parse: "json",
      body: UpdateBusinessBody,
      response: { 200: Ok(Business) },
      detail: { tags, summary: "Update a business (partial; the RUT cannot change)" },
    })
    .delete("/:id", async ({ auth, params }) => ok(await deleteBusiness(deps, auth, params.id)), {
      permission: "businesses:write",
      params: IdParams,
      response: { 200: Ok(Deleted) },
      detail: { tags, summary: "Soft-delete a business and revoke its keys" },
    })
    .post(
      "/:id/certificate",
      async ({ auth, params, body }) => ok(await uploadCertificate(deps, auth, params.id, await readCertificateUpload(body))),
      {
        permission: "businesses:write",
        params: IdParams,
        response: { 200: Ok(Business) },
        detail: {
          tags,
          summary: "Upload the signing certificate (PKCS#12)",
          requestBody: {
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["file", "password"],
                  properties: { file: { type: "string", format: "binary" }, password: { type: "string" } },
                },
              },
              "application/json": { schema: CertificateJsonBody },
            },
          },
        },
      },
    )
    .post("/:id/webhook-secret", async ({ auth, params }) => ok(await rotateWebhookSecret(deps, auth, params.id)), {
      permission: "businesses:write",
      params: IdParams,
      response: { 200: Ok(WebhookSecret) },
      detail: { tags, summary: "Rotate the webhook secret (the old one keeps signing for 24 h)" },
    });
}
