/** What the server's thread sends a verification thread (`verify-worker.ts`); the thread answers a `ReceivedEnvelopeResult`. */

export interface VerifyJob {
  /** The envelope as received. */
  bytes: Uint8Array;
  /** The receiving business's RUT. */
  rutReceptor: string;
  /** The environment's SII authority keys as SPKI DER (a `KeyObject` does not cross threads). */
  authorities: Array<{ idk: number; spki: Uint8Array }>;
}
