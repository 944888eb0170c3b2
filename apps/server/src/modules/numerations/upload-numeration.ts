import type { Deps } from "../../deps.js";
import type { Credential } from "../../http/credential.js";
import { chileToday } from "../../time.js";
import { findBusiness } from "../businesses/find-business.js";
import { presentNumeration, type NumerationView } from "./present-numeration.js";
import { storeCaf } from "./store-caf.js";

/** `POST /businesses/{id}/numerations`: the CAF goes to the caller's environment for a business it can see. */
export async function uploadNumeration(deps: Deps, caller: Credential, businessId: string, file: Uint8Array): Promise<NumerationView> {
  const business = await findBusiness(deps, caller, businessId);
  const row = await storeCaf(deps, { businessId: business.id, rut: business.rut, environment: caller.environment }, file);
  return presentNumeration(row, chileToday(deps.now()));
}
