/** Every module's OpenAPI docs, keyed by `METHOD /path` (`http/openapi-contract.ts`). */
import type { ContractDocs } from "./http/openapi-contract.js";
import { authDocs } from "./modules/auth/docs.js";
import { businessDocs } from "./modules/businesses/docs.js";
import { dteDocs } from "./modules/dte/docs.js";
import { eventDocs } from "./modules/events/docs.js";
import { issuerDocs } from "./modules/issuers/docs.js";
import { numerationDocs } from "./modules/numerations/docs.js";
import { receivedDocs } from "./modules/received/docs.js";
import { tokenDocs } from "./modules/tokens/docs.js";
import { utilityDocs } from "./modules/utilities/docs.js";

export const CONTRACT_DOCS: ContractDocs = { ...utilityDocs, ...authDocs, ...tokenDocs, ...businessDocs, ...numerationDocs, ...dteDocs, ...receivedDocs, ...issuerDocs, ...eventDocs };
