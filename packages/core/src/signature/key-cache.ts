/**
 * Public keys already read, by the text they were read from: an envelope's signer certificate and a CAF's RSAPK
 * repeat on every document, and reading a key (`createPublicKey` + JWK export) costs about as much as the RSA
 * verification itself. Bounded: past `MAX_KEYS` the oldest entry goes. A read that throws caches nothing. Internal.
 */
const MAX_KEYS = 256;

export function cachedKey<T>(cache: Map<string, T>, source: string, read: () => T): T {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const value = read();
  if (cache.size >= MAX_KEYS) cache.delete(cache.keys().next().value as string);
  cache.set(source, value);
  return value;
}
