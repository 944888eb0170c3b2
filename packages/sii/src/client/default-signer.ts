import type { SeedSigner } from "./context.js";

/**
 * Core's `signSeed` (packages/core/src/xml). Interim: throws until core's xml area exports it; pass
 * `signSeed` in the client options meanwhile.
 */
export const defaultSeedSigner: SeedSigner = () => {
  throw new Error("core signSeed is not available yet: pass options.signSeed");
};
