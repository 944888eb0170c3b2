/**
 * Chile's civil time (America/Santiago) for signature timestamps (TmstFirma, TmstFirmaEnv) and the SII registry's
 * dates: `@timbre/sii`'s conversions, under the names the server uses. Dates come from `chileToday` (time.ts).
 */
export { chileToday as chileDate } from "../../time.js";
export {
  /** `YYYY-MM-DDTHH:MM:SS` in Chile at an instant. */
  chileLocalTime as chileTimestamp,
  /** The instant of a Chilean wall time `YYYY-MM-DDTHH:MM:SS`, or null. */
  instantOfChileTime as fromChileTimestamp,
} from "@timbre/sii/client";
