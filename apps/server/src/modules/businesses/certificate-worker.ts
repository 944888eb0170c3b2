/**
 * A thread that reads one PKCS#12 (`loadPkcs12`) and answers with what the server keeps, the key as PKCS#8 DER
 * (`certificate-threads.ts` keeps a few, one file at a time each, and ends one that runs out of time).
 */
import { loadPkcs12 } from "@timbre/core/certificates";
import { toWireError } from "../../signing/signing-wire.js";
import type { CertificateReply, CertificateRequest } from "./certificate-wire.js";

declare const self: { onmessage: ((event: MessageEvent<CertificateRequest>) => void) | null; postMessage(message: CertificateReply): void };

self.onmessage = async ({ data: { bytes, password } }) => {
  try {
    const { privateKey, certificateDer: _der, ...fields } = await loadPkcs12(bytes, password);
    self.postMessage({ ok: true, certificate: { ...fields, privateKeyDer: new Uint8Array(privateKey.export({ format: "der", type: "pkcs8" })) } });
  } catch (error) {
    self.postMessage({ ok: false, error: toWireError(error) });
  }
};
