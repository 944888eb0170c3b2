/** argon2id through Bun.password (OWASP minimum parameters: 19 MiB, 2 passes). */
const OPTIONS = { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 } as const;
let dummyHash: Promise<string> | null = null;

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, OPTIONS);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash).catch(() => false);
}

/** Spends the same time as a real verification, so an unknown email is not told apart by timing. */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword("timbre-timing-equaliser");
  await verifyPassword(password, await dummyHash);
  return false;
}
