/**
 * The SII's CAF authority keys — IDK 100 (certificación) and IDK 300 (producción) — read from `TIMBRE_SII_CERTS_DIR`
 * when set, else from the copy bundled in `@timbre/sii-data`.
 */
import { authorityKeyFromPem, type AuthorityKey } from "@timbre/core/caf";
import { authorityCertsDir } from "@timbre/sii-data";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The setting that points at another folder of authority keys than the bundled one. */
export const CERTS_SETTING = "TIMBRE_SII_CERTS_DIR";

const IDKS = [100, 300] as const;

/**
 * Both authority keys by IDK. Throws one Error listing every key file missing or unreadable, naming the setting.
 *
 * @example
 * readSiiAuthorities(config.siiCertsDir).get(300); // the production authority's key
 */
export function readSiiAuthorities(configuredDir: string | null): Map<number, AuthorityKey> {
  const dir = configuredDir ?? authorityCertsDir();
  const keys = new Map<number, AuthorityKey>();
  const problems: string[] = [];
  for (const idk of IDKS) {
    const file = `${idk}.pub.pem`;
    let pem: string;
    try {
      pem = readFileSync(join(dir, file), "utf8");
    } catch {
      problems.push(`${file} not found`);
      continue;
    }
    try {
      keys.set(idk, authorityKeyFromPem(idk, pem));
    } catch {
      problems.push(`${file} is not a public key`);
    }
  }
  if (problems.length > 0) {
    const where = configuredDir === null ? `${dir} (bundled with @timbre/sii-data)` : `${dir} (${CERTS_SETTING})`;
    throw new Error(
      `SII authority keys not found: in ${where}, ${problems.join(", ")}; set ${CERTS_SETTING} to a folder holding the SII's 100.pub.pem and 300.pub.pem`,
    );
  }
  return keys;
}
