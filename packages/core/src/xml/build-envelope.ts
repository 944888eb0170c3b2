/** EnvioDTE / EnvioBOLETA: Caratula + signed DTE texts inserted byte for byte + SetDTE signed in context (BRIEF §6.1). */
import type { Resolution } from "../document/types.js";
import { TimbreError } from "../errors/index.js";
import { isValidRut, normalizeRut, SII_RUT } from "../rut/index.js";
import { canonicalizeXml } from "../signature/canonical.js";
import { signReference } from "../signature/sign-reference.js";
import type { SigningIdentity } from "../signature/types.js";
import { C14N_ALGORITHM, isDate, isTimestamp, SII_NS, XML_DECLARATION, XSI_NS } from "./constants.js";
import { writeCaratula } from "./write-caratula.js";

export type EnvelopeKind = "EnvioDTE" | "EnvioBOLETA";

/** A signed DTE with its C14N inside SetDTE, as `buildSignedDte` returns it. */
export interface EnvelopeDte {
  xml: string;
  envelopeC14n: string;
}

export interface EnvelopeOptions {
  kind: EnvelopeKind;
  rutEmisor: string;
  /** The signing certificate holder's RUT (must be authorised for the issuer at the SII). */
  rutEnvia: string;
  /** Defaults to the SII, `60803000-K`. */
  rutReceptor?: string;
  resolution: Resolution;
  /**
   * Signed stand-alone DTEs: their texts (the XML declaration is dropped), or what `buildSignedDte` returned, whose
   * `envelopeC14n` then spares canonicalizing the text again (it must be that text's: a wrong one makes an envelope
   * whose signature does not verify).
   */
  dtes: Array<string | EnvelopeDte>;
  identity: SigningIdentity;
  /** `TmstFirmaEnv`, `YYYY-MM-DDTHH:MM:SS` Chile local time. */
  timestamp: string;
}

const SCHEMA: Record<EnvelopeKind, string> = { EnvioDTE: "EnvioDTE_v10.xsd", EnvioBOLETA: "EnvioBOLETA_v11.xsd" };
const MAX_DTES: Record<EnvelopeKind, number> = { EnvioDTE: 2000, EnvioBOLETA: 500 };
/** Namespaces in scope inside SetDTE: the root's default namespace and `xsi`. */
const CONTEXT = { "": SII_NS, xsi: XSI_NS } as const;

const fail = (message: string, details: Record<string, unknown> = {}): never => {
  throw new TimbreError("VALIDATION_ERROR", message, { details });
};

function stripDeclaration(dte: string, index: number): { text: string; tipo: number; folio: string; rutEmisor: string } {
  if (typeof dte !== "string") fail(`dtes[${index}] is not a DTE text`, { index });
  const text = dte.replace(/^\uFEFF?\s*<\?xml[\s\S]*?\?>\s*/, "").trimEnd();
  if (!text.startsWith("<DTE")) fail(`dtes[${index}] is not a DTE document`, { index });
  const m = /<TipoDTE>\s*(\d+)\s*<\/TipoDTE>/.exec(text);
  if (!m) return fail(`dtes[${index}] has no TipoDTE`, { index });
  // The first Folio and RUTEmisor are the document's own (IdDoc, Emisor); references and the TED come later.
  const folio = /<Folio>\s*(\d+)\s*<\/Folio>/.exec(text)?.[1] ?? "";
  const rutEmisor = /<RUTEmisor>\s*([^<\s]+)\s*<\/RUTEmisor>/.exec(text)?.[1] ?? "";
  return { text, tipo: Number(m[1]), folio, rutEmisor };
}

/**
 * Builds and signs an envelope. The root declares `xmlns`, `xmlns:xsi` and `xsi:schemaLocation` (like every SII
 * sample); the SetDTE digest is over its C14N form in context (which therefore carries `xmlns:xsi`), and
 * `SignedInfo` is likewise canonicalized in its final context — `xmlns:xsi` is not re-declared on it. Each DTE is
 * inserted exactly as given, so its own signature still verifies when cut out. Throws `VALIDATION_ERROR` when a DTE
 * does not belong in this kind of envelope, `INVALID_RUT` for bad RUTs.
 *
 * @example
 * const xml = buildEnvelope({ kind: "EnvioDTE", rutEmisor: "76192083-9", rutEnvia: "11111111-1",
 *   resolution: { numero: 0, fecha: "2014-08-22" }, dtes: [signed], identity, timestamp: "2026-01-15T10:11:12" });
 */
export function buildEnvelope(options: EnvelopeOptions): string {
  const { kind, resolution, dtes, identity, timestamp } = options;
  if (kind !== "EnvioDTE" && kind !== "EnvioBOLETA") fail(`unknown envelope kind ${String(kind)}`);
  if (!isTimestamp(timestamp)) fail(`timestamp must be YYYY-MM-DDTHH:MM:SS, got ${JSON.stringify(timestamp)}`);
  if (!isDate(resolution.fecha)) fail("resolution.fecha must be a date YYYY-MM-DD");
  if (!Number.isInteger(resolution.numero) || resolution.numero < 0 || resolution.numero > 999_999) {
    fail("resolution.numero must be an integer of up to 6 digits");
  }
  if (dtes.length === 0 || dtes.length > MAX_DTES[kind]) fail(`an ${kind} carries 1 to ${MAX_DTES[kind]} DTEs`);
  const parts = dtes.map((dte, index) => stripDeclaration(typeof dte === "string" ? dte : dte?.xml, index));
  const counts = new Map<number, number>();
  const seen = new Set<string>();
  const issuer = normalizeRut(options.rutEmisor);
  for (const [index, { tipo, folio, rutEmisor }] of parts.entries()) {
    const receipt = tipo === 39 || tipo === 41;
    if (receipt !== (kind === "EnvioBOLETA")) fail(`dtes[${index}] (tipo ${tipo}) does not belong in an ${kind}`, { index, tipo });
    // One issuer per envelope (the SII refuses a carátula that does not match: RCT), each document once (the IDs of
    // two copies collide: RSC).
    if (!isValidRut(rutEmisor) || normalizeRut(rutEmisor) !== issuer) fail(`dtes[${index}] is issued by ${rutEmisor || "nobody"}, not by ${issuer}`, { index });
    if (seen.has(`${tipo}/${folio}`)) fail(`dtes[${index}] (${tipo}/${folio}) is in the envelope twice`, { index, tipo });
    seen.add(`${tipo}/${folio}`);
    counts.set(tipo, (counts.get(tipo) ?? 0) + 1);
  }
  const caratula = writeCaratula({
    rutEmisor: issuer,
    rutEnvia: normalizeRut(options.rutEnvia),
    rutReceptor: normalizeRut(options.rutReceptor ?? SII_RUT),
    resolution,
    timestamp,
    counts,
  });
  let file = `<SetDTE ID="SetDoc">${caratula}`;
  let canonical = `<SetDTE xmlns="${SII_NS}" xmlns:xsi="${XSI_NS}" ID="SetDoc">${caratula}`;
  for (const [index, { text }] of parts.entries()) {
    const given = dtes[index];
    file += text;
    canonical += typeof given === "object" && typeof given.envelopeC14n === "string" ? given.envelopeC14n : canonicalizeXml(text, { inScope: CONTEXT, rendered: CONTEXT });
  }
  file += "</SetDTE>";
  canonical += "</SetDTE>";
  const signature = signReference({ canonical, uri: "#SetDoc", transform: C14N_ALGORITHM, identity, context: CONTEXT });
  const root = `<${kind} xmlns="${SII_NS}" xmlns:xsi="${XSI_NS}" xsi:schemaLocation="${SII_NS} ${SCHEMA[kind]}" version="1.0">`;
  return `${XML_DECLARATION}${root}${file}${signature}</${kind}>`;
}
