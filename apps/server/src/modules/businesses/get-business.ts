import type { Deps } from "../../deps.js";
import type { Credential } from "../../http/credential.js";
import { findBusiness } from "./find-business.js";
import { presentBusiness, type BusinessView } from "./present-business.js";

export async function getBusiness(deps: Deps, caller: Credential, id: string): Promise<BusinessView> {
  return presentBusiness(await findBusiness(deps, caller, id), deps.config.mail.inboundDomain);
}
