import { parseMultipart } from "../protocol/parse-multipart.js";
import { htmlPage, recepcionDte, siiTimestamp } from "./answers.js";
import { tokenFromCookie, type TokenScope } from "./credentials.js";
import { receiveEnvelope, type IncomingEnvelope } from "./receive-envelope.js";
import type { SandboxState } from "./state.js";

interface UploadForm {
  rutSender: string;
  rutCompany: string;
  file: string;
  bytes: Uint8Array;
}

async function readForm(req: Request): Promise<UploadForm | null> {
  const parts = parseMultipart(new Uint8Array(await req.arrayBuffer()), req.headers.get("content-type"));
  if (parts === null) return null;
  const field = (name: string) => new TextDecoder("latin1").decode(parts.find((p) => p.name === name)?.bytes ?? new Uint8Array()).trim();
  const archivo = parts.find((p) => p.name === "archivo");
  if (archivo === undefined) return null;
  return {
    rutSender: `${field("rutSender")}-${field("dvSender").toUpperCase()}`,
    rutCompany: `${field("rutCompany")}-${field("dvCompany").toUpperCase()}`,
    file: archivo.filename ?? "envio.xml",
    bytes: archivo.bytes,
  };
}

function sessionHolder(state: SandboxState, req: Request, scope: TokenScope): string | null | false {
  const check = state.credentials.checkToken(tokenFromCookie(req.headers.get("cookie")), scope);
  return check.status === "valid" ? check.issued.holderRut : false;
}

/** STATUS 1 when the sender is not the authenticated certificate holder, 6 when the company is not enabled. */
function permissionStatus(state: SandboxState, form: UploadForm, holder: string | null): "1" | "6" | null {
  if (holder !== null && holder.toUpperCase() !== form.rutSender.toUpperCase()) return "1";
  const companies = state.settings.companies;
  if (companies !== null && !companies.includes(form.rutCompany.toUpperCase())) return "6";
  return null;
}

const browserLike = (req: Request) => /^Mozilla\//.test(req.headers.get("user-agent") ?? "");

async function receive(state: SandboxState, form: UploadForm, channel: IncomingEnvelope["channel"]) {
  const result = await receiveEnvelope(state, { ...form, channel });
  if ("hang" in result) await state.hang();
  return result;
}

/**
 * POST /cgi_dte/UPL/DTEUpload: without a valid TOKEN cookie or a browser-like User-Agent, an HTML page with
 * HTTP 200 (like the SII); otherwise `RECEPCIONDTE` with STATUS 0 + TRACKID, 1 (sender is not the token's
 * certificate holder), 6 (company not enabled, see `companies`), or 7 / 8 with DETAIL. `lostAnswer` (fault
 * injection): a received file is answered with that STATUS and no TRACKID.
 *
 * @example
 * await handleDteUpload(state, request);
 */
export async function handleDteUpload(state: SandboxState, req: Request, options: { lostAnswer?: string } = {}): Promise<Response> {
  const holder = sessionHolder(state, req, "dte");
  if (!browserLike(req) || holder === false) return htmlPage("No está autenticado. Debe autenticarse para enviar documentos.");
  const form = await readForm(req);
  const timestamp = siiTimestamp(state.settings.now());
  const xml = (status: string, extra: { trackId?: string; errors?: string[] } = {}) =>
    new Response(recepcionDte({ rutSender: form?.rutSender ?? "", rutCompany: form?.rutCompany ?? "", file: form?.file ?? "", timestamp, status, ...extra }),
      { headers: { "Content-Type": "text/xml; charset=ISO-8859-1" } });
  if (form === null) return xml("2", { errors: ["archivo ausente o multipart inválido"] });
  if (form.bytes.length === 0) return xml("2");
  const refused = permissionStatus(state, form, holder);
  if (refused !== null) return xml(refused);
  const result = await receive(state, form, "dteupload");
  if ("hang" in result) return htmlPage("Servicio no disponible");
  if (result.status === "0") return options.lostAnswer !== undefined ? xml(options.lostAnswer) : xml("0", { trackId: result.record.trackId });
  return xml(result.status, { errors: result.errors });
}

/**
 * POST /recursos/v1/boleta.electronica.envio: 401 without a boleta token or a browser-like User-Agent; else
 * JSON `{ rut_emisor, rut_envia, trackid, fecha_recepcion, estado: "REC", file }` (schema and signature problems
 * show up later as RSC / RFR).
 *
 * @example
 * await handleBoletaUpload(state, request);
 */
export async function handleBoletaUpload(state: SandboxState, req: Request): Promise<Response> {
  const holder = sessionHolder(state, req, "boleta");
  if (!browserLike(req) || holder === false) return new Response("NO ESTA AUTENTICADO", { status: 401 });
  const form = await readForm(req);
  if (form === null || form.bytes.length === 0) return Response.json({ error: "archivo ausente" }, { status: 400 });
  const refused = permissionStatus(state, form, holder);
  if (refused !== null) return Response.json({ estado: refused, error: ["sin permiso"] }, { status: 403 });
  const result = await receive(state, form, "boleta-rest");
  if ("hang" in result) return htmlPage("Servicio no disponible");
  if (result.status !== "0") return Response.json({ estado: result.status, error: result.errors }, { status: 400 });
  return Response.json({
    rut_emisor: form.rutCompany,
    rut_envia: form.rutSender,
    trackid: Number(result.record.trackId),
    fecha_recepcion: siiTimestamp(state.settings.now()),
    estado: "REC",
    file: form.file,
  });
}
