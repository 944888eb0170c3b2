/** Namespaces and algorithm URIs of the SII's XML profile (BRIEF §2, §6). */
export const SII_NS = "http://www.sii.cl/SiiDte";
export const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";
export const DSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
export const C14N_ALGORITHM = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
export const RSA_SHA1_ALGORITHM = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
export const SHA1_ALGORITHM = "http://www.w3.org/2000/09/xmldsig#sha1";
export const ENVELOPED_SIGNATURE_ALGORITHM = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";
export const XML_DECLARATION = '<?xml version="1.0" encoding="ISO-8859-1"?>\n';

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;

/**
 * `true` for `YYYY-MM-DDTHH:MM:SS` (no zone, no millis) with a real calendar date.
 *
 * @example
 * isTimestamp("2026-01-15T10:11:12") // true
 * isTimestamp("2026-01-15T10:11:12Z") // false
 */
export function isTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  return m !== null && isDate(value.slice(0, 10));
}

/**
 * `true` for a real calendar date `YYYY-MM-DD` between 2000-01-01 and 2050-12-31 (SII `FechaType`).
 *
 * @example
 * isDate("2026-02-29") // false
 */
export function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 2000 || y > 2050 || mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return d <= days;
}
