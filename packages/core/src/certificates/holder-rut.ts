import { tryParseRut } from "../rut/index.js";
import { decodeDerString, decodeOid, readChildren, readTlv } from "./der.js";

/** otherName type id the Chilean accredited CAs use for the holder's RUT. */
export const RUT_OTHER_NAME_OID = "1.3.6.1.4.1.8321.1";

/**
 * Holder RUT from a subjectAltName extension value (DER `GeneralNames`): the otherName
 * 1.3.6.1.4.1.8321.1 string, leading zeros stripped, canonical (`7880442-4`). `null` when absent or invalid.
 *
 * @example
 * rutFromSubjectAltName(sanDer) // "11111111-1"
 */
export function rutFromSubjectAltName(san: Uint8Array): string | null {
  try {
    const names = readTlv(san, 0);
    if (names.tag !== 0x30) return null;
    for (const name of readChildren(names.value)) {
      if (name.tag !== 0xa0) continue; // otherName [0] IMPLICIT SEQUENCE { type-id, [0] EXPLICIT value }
      const [typeId, wrapped] = readChildren(name.value);
      if (!typeId || typeId.tag !== 0x06 || decodeOid(typeId.value) !== RUT_OTHER_NAME_OID) continue;
      if (!wrapped || wrapped.tag !== 0xa0) continue;
      const inner = readChildren(wrapped.value)[0];
      const text = inner ? decodeDerString(inner) : null;
      const rut = text ? tryParseRut(text.trim()) : null;
      if (rut) return `${rut.body}-${rut.dv}`;
    }
  } catch {
    return null;
  }
  return null;
}
