import { Type } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Deps } from "../../deps.js";
import { authPlugin } from "../../http/auth.js";
import { ok, Ok, OkList, pageParameters, paginated, pagination, readPage } from "../../http/envelope.js";
import { getNumeration } from "./get-numeration.js";
import { listNumerations } from "./list-numerations.js";
import { readCafUpload } from "./read-caf-upload.js";
import { cafUploadRequestBody, listParameters, Numeration } from "./schemas.js";
import { uploadNumeration } from "./upload-numeration.js";

const tags = ["numerations"];
const IdParams = Type.Object({ id: Type.String() });

/** Numerations (CAF) of API.md §6.4, in the caller's environment. */
export function numerationRoutes(deps: Deps) {
  return new Elysia({ name: "timbre.numerations", seed: deps.instanceId, prefix: "/v1" })
    .use(authPlugin(deps))
    .get(
      "/businesses/:id/numerations",
      async ({ auth, params, query }) => {
        const page = readPage(query);
        const { items, total } = await listNumerations(deps, auth, params.id, { tipo: query.tipo, estado: query.estado }, page);
        return paginated(items, pagination(page.page, page.limit, total));
      },
      {
        permission: "numerations:read",
        params: IdParams,
        response: { 200: OkList(Numeration) },
        detail: { tags, summary: "List a business's numerations (filters tipo, estado)", parameters: [...pageParameters, ...listParameters] },
      },
    )
    .post(
      "/businesses/:id/numerations",
      async ({ auth, params, body, set }) => {
        const created = await uploadNumeration(deps, auth, params.id, await readCafUpload(body));
        set.status = 201;
        return ok(created);
      },
      {
        permission: "numerations:write",
        params: IdParams,
        response: { 201: Ok(Numeration) },
        detail: { tags, summary: "Upload a CAF (multipart file, application/xml or JSON { caf_xml })", requestBody: cafUploadRequestBody },
      },
    )
    .get("/numerations/:id", async ({ auth, params }) => ok(await getNumeration(deps, auth, params.id)), {
      permission: "numerations:read",
      params: IdParams,
      response: { 200: Ok(Numeration) },
      detail: { tags, summary: "One numeration" },
    });
}
