import { signSeed } from "@timbre/core/xml";
import type { SeedSigner } from "./context.js";

/** Core's `signSeed` (enveloped signature over `getToken/item/Semilla`, BRIEF §7.1). */
export const defaultSeedSigner: SeedSigner = (seed, identity) => signSeed(seed, identity);
