import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.js";
import { businesses, type CertificateSummary } from "../../db/businesses.js";
import type { Credential } from "../../http/credential.js";
import { ApiError } from "../../http/errors.js";
import { encryptSecret } from "../../secrets.js";
import type { LoadedCertificateInfo } from "./certificate-loader.js";
import { findBusiness } from "./find-business.js";
import { presentBusiness, type BusinessView } from "./present-business.js";
import type { CertificateUpload } from "./read-certificate-upload.js";

/**
 * Reads the PKCS#12, refuses it when not valid now or when it names no holder RUT (the SII identifies the signer,
 * and checks `RutEnvia`, by that RUT: such a certificate would fail at the first upload instead), and keeps the
 * certificate, its summary and the private key sealed under the master key. The password is not stored.
 */
export async function uploadCertificate(deps: Deps, caller: Credential, id: string, upload: CertificateUpload): Promise<BusinessView> {
  const business = await findBusiness(deps, caller, id);
  if (upload.bytes.byteLength === 0) throw new ApiError("CERTIFICATE_INVALID", "the file is empty", { reason: "format" });
  const loaded = await deps.certificates.load(upload.bytes, upload.password);
  const now = deps.now();
  if (loaded.validFrom.getTime() > now.getTime()) {
    throw new ApiError("CERTIFICATE_INVALID", "the certificate is not valid yet", { reason: "not_yet_valid", valid_from: loaded.validFrom.toISOString() });
  }
  if (loaded.validTo.getTime() < now.getTime()) {
    throw new ApiError("CERTIFICATE_INVALID", "the certificate has expired", { reason: "expired", valid_to: loaded.validTo.toISOString() });
  }
  if (loaded.holderRut === null) {
    throw new ApiError("CERTIFICATE_INVALID", "the certificate does not carry its holder's RUT: the SII takes only certificates from accredited Chilean providers, which write it (subjectAltName 1.3.6.1.4.1.8321.1)", { reason: "no_rut" });
  }
  const keyPem = loaded.privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const [row] = await deps.db
    .update(businesses)
    .set({
      certificate: summarize(loaded),
      certificatePem: loaded.certificatePem,
      certificateKeyEnc: encryptSecret(deps.secrets.masterKey, keyPem),
      updatedAt: now,
    })
    .where(eq(businesses.id, business.id))
    .returning();
  if (!row) throw new Error("update returned nothing");
  return presentBusiness(row, deps.config.mail.inboundDomain);
}

function summarize(loaded: LoadedCertificateInfo): CertificateSummary {
  return {
    rut_titular: loaded.holderRut,
    nombre_titular: loaded.holderName,
    emisor: loaded.issuer,
    serial: loaded.serial,
    valid_from: loaded.validFrom.toISOString(),
    valid_to: loaded.validTo.toISOString(),
    fingerprint_sha256: loaded.fingerprintSha256,
  };
}
