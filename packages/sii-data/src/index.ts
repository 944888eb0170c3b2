/**
 * Where the SII's public files shipped with this package are: absolute folder paths, resolved from this module's own
 * location (`src/` under Bun, `dist/` under Node; both sit one level below the data folders).
 */
import { fileURLToPath } from "node:url";

/**
 * The SII's official XSDs (`EnvioDTE_v10.xsd`, `DTE_v10.xsd`, `EnvioBOLETA_v11.xsd`, …), ISO-8859-1, unmodified.
 *
 * @example
 * ```ts
 * readFileSync(join(schemasDir(), "EnvioDTE_v10.xsd"));
 * ```
 */
export function schemasDir(): string {
  return fileURLToPath(new URL("../schemas", import.meta.url));
}

/**
 * The SII's SOAP WSDLs for the certification host (CrSeed, GetTokenFromSeed, QueryEstUp, QueryEstDte, …).
 *
 * @example
 * ```ts
 * readFileSync(join(wsdlDir(), "CrSeed.wsdl"), "utf8");
 * ```
 */
export function wsdlDir(): string {
  return fileURLToPath(new URL("../wsdl", import.meta.url));
}

/**
 * The SII's CAF authority certificates: `100.cer` / `100.pub.pem` (certificación) and `300.cer` / `300.pub.pem`
 * (producción); a CAF's `FRMA` verifies against the key of its `IDK`.
 *
 * @example
 * ```ts
 * readFileSync(join(authorityCertsDir(), "300.pub.pem"), "utf8");
 * ```
 */
export function authorityCertsDir(): string {
  return fileURLToPath(new URL("../certs", import.meta.url));
}
