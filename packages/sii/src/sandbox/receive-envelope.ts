import { createHash } from "node:crypto";
import { verifyEnvelope, type DocumentVerification } from "@timbre/core/signature";
import { checkCaratula } from "./check-caratula.js";
import { checkDocument } from "./check-document.js";
import { decodeEnvelope } from "./decode-envelope.js";
import { processedAt, type EnvelopeFinal, type EnvelopeRecord } from "./envelopes.js";
import { readEnvelope } from "./read-envelope.js";
import { documentKey, type RegisteredDocument } from "./registry.js";
import { receiverDriverEvents } from "./receiver-drivers.js";
import type { SandboxState } from "./state.js";
import { signerValidityErrors } from "./signer-validity.js";
import { checkXsd } from "./xsd-check.js";

/** An upload as received (either channel). */
export interface IncomingEnvelope {
  bytes: Uint8Array;
  file: string;
  rutSender: string;
  rutCompany: string;
  channel: "dteupload" | "boleta-rest";
}

/** The synchronous answer: a TRACKID, a refusal STATUS with detail, or no answer at all. */
export type ReceiveResult =
  | { status: "0"; record: EnvelopeRecord }
  | { status: "7" | "8"; errors: string[] }
  | { hang: true };

function envelopeRejection(codigo: string, errors: string[]) {
  return errors.slice(0, 10).map((e) => ({ codigo, descripcion: e }));
}

/** Range and RE/TD mismatches are reported with their own CAF codes; TED-2-510 is for FRMT/DD problems. */
const OWN_CAF_CHECKS = /outside the CAF range|differs from the CAF/;

function tedSignatureValid(doc: DocumentVerification | undefined): boolean {
  if (doc === undefined) return false;
  if (doc.ted) return true;
  const tedErrors = doc.errors.filter((e) => e.startsWith("TED"));
  return tedErrors.length > 0 && tedErrors.every((e) => OWN_CAF_CHECKS.test(e));
}

/**
 * Receives an envelope like DTEUpload / the boleta REST upload: XSD (STATUS 7, or RSC by REST; the REST service takes
 * EnvioBOLETA only), signatures of SetDTE in context and each DTE stand-alone, and the signer's certificate not
 * expired (STATUS 8, or RFR by REST), carátula (RCT), then each document's
 * checks; registers the documents and the envelope. The very file the sandbox already processed for the issuer is
 * `RPT` (repetido): nothing of it is registered again. `[sandbox:timeout]` in any RznSocRecep → no answer;
 * `[sandbox:reclamo]` / `[sandbox:acepta]` record the receiver's RCD / ACD (see `receiverDriverEvents`).
 *
 * @example
 * const result = await receiveEnvelope(state, { bytes, file: "envio.xml", rutSender, rutCompany, channel: "dteupload" });
 */
export async function receiveEnvelope(state: SandboxState, input: IncomingEnvelope): Promise<ReceiveResult> {
  const text = decodeEnvelope(input.bytes);
  const facts = readEnvelope(text);
  if (facts.dtes.some((d) => d.rznSocRecep.toLowerCase().includes("[sandbox:timeout]"))) return { hang: true };
  const rest = input.channel === "boleta-rest";
  const base = {
    trackId: "",
    kind: facts.root ?? "EnvioDTE",
    channel: input.channel,
    rutEmisor: input.rutCompany,
    rutEnvia: input.rutSender,
    file: input.file,
    receivedAt: state.settings.now().getTime(),
    documents: [],
  } satisfies Omit<EnvelopeRecord, "final" | "envelopeErrors">;
  const finish = (final: EnvelopeFinal, envelopeErrors: EnvelopeRecord["envelopeErrors"], documents: EnvelopeRecord["documents"] = []) => {
    const record: EnvelopeRecord = { ...base, trackId: state.nextTrackId(), final, envelopeErrors, documents };
    state.envelopes.set(record.trackId, record);
    if (final !== "EPR") state.remember({ kind: "envelope", record, fileKey: null, documents: [] });
    state.scheduleResultMail(record, processedAt(record, state.settings.stepMs));
    return { status: "0" as const, record };
  };

  const schemaErrors = facts.root === null ? ["root element is not EnvioDTE or EnvioBOLETA"]
    : rest && facts.root !== "EnvioBOLETA" ? ["el servicio de boletas recibe sólo EnvioBOLETA: envíe el EnvioDTE por DTEUpload"]
    : state.settings.xsd === "off" ? null : await checkXsd(input.bytes, facts.root);
  if (schemaErrors !== null && schemaErrors.length > 0) {
    return rest ? finish("RSC", envelopeRejection("RSC", schemaErrors)) : { status: "7", errors: schemaErrors.slice(0, 10) };
  }
  const verification = verifyEnvelope(input.bytes, { crossCheck: state.settings.crossCheck === "on" });
  const signatureErrors = verification.errors.filter((e) => e.startsWith("envelope signature") || !e.startsWith("DTE "));
  for (const doc of verification.documents ?? []) {
    if (!doc.signature) signatureErrors.push(`DTE ${doc.id}: firma inválida`);
  }
  signatureErrors.push(...signerValidityErrors(text, state.settings.now()));
  if (signatureErrors.length > 0) {
    return rest ? finish("RFR", envelopeRejection("RFR", signatureErrors)) : { status: "8", errors: signatureErrors.slice(0, 10) };
  }
  const caratula = checkCaratula(facts, text, input, { environment: state.settings.environment, today: state.settings.now().toISOString().slice(0, 10) });
  if (caratula.length > 0) return finish("RCT", caratula);
  const fileKey = `${input.rutCompany.toUpperCase()}|${createHash("sha256").update(input.bytes).digest("hex")}`;
  const first = state.processedFiles.get(fileKey);
  if (first !== undefined) return finish("RPT", [{ codigo: "RPT", descripcion: `Envío repetido: este archivo ya se recibió con el TRACKID ${first}` }]);

  // Earlier DTEs of this envelope: a folio the SII takes once (DTE-3-101), documents a later note may reference.
  const earlier = new Map<string, { mntTotal: number; estado: string }>();
  const received = (rut: string, tipo: number, folio: number) => {
    const here = earlier.get(documentKey(rut, tipo, folio));
    if (here !== undefined) return here.estado === "RCH" ? undefined : here;
    const doc = state.registry.find(rut, tipo, folio);
    return doc !== undefined && doc.estado !== "RCH" ? doc : undefined;
  };
  const documents = facts.dtes.map((dte) => {
    const verified = verification.documents?.find((d) => d.tipo === dte.tipo && d.folio === dte.folio);
    const key = documentKey(dte.rutEmisor, dte.tipo, dte.folio);
    const outcome = checkDocument(dte, {
      authorities: state.settings.authorities,
      registry: state.registry,
      tedValid: tedSignatureValid(verified),
      rejectionCode: state.settings.rejectionCode,
      remarkCode: state.settings.remarkCode,
      received,
      repeatedInEnvelope: earlier.has(key),
    });
    if (!earlier.has(key)) earlier.set(key, { mntTotal: dte.mntTotal, estado: outcome.estado });
    return outcome;
  });
  const result = finish("EPR", [], documents);
  state.processedFiles.set(fileKey, result.record.trackId);
  const visibleAt = processedAt(result.record, state.settings.stepMs);
  const registered: RegisteredDocument[] = [];
  facts.dtes.forEach((dte, i) => {
    const outcome = documents[i];
    if (outcome === undefined) return;
    registered.push({
      rutEmisor: dte.rutEmisor, tipo: dte.tipo, folio: dte.folio, fchEmis: dte.fchEmis, rutRecep: dte.rutRecep,
      mntTotal: dte.mntTotal, fingerprint: dte.fingerprint, estado: outcome.estado, trackId: result.record.trackId, visibleAt,
      receivedAt: result.record.receivedAt, references: dte.references,
      receiverEvents: receiverDriverEvents(dte, outcome.estado, visibleAt),
    });
  });
  for (const doc of registered) state.registry.register(doc);
  state.remember({ kind: "envelope", record: result.record, fileKey, documents: registered });
  return result;
}
