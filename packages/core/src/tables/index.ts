/**
 * The code tables of the SII and the Aduana that documents 46 and 110–112 use, as data with their printed words.
 * Source and date of each table: README.md beside this file.
 */
export { isSiiActivityCode, SII_ACTIVITY_CODES } from "./activity-codes.js";
export { codeName, hasCode, type CodeEntry, type CodeTable } from "./code-table.js";
export { ISO_TO_SII_CURRENCY, SII_CURRENCIES, isSiiCurrency, siiCurrencyFromIso, type SiiCurrency } from "./currencies.js";
export {
  CONTAINER_PACKAGE_KINDS, COUNTRIES, CUSTOMS_UNITS, EXPORT_PAYMENT_FORMS, EXPORT_SERVICE_KINDS, PACKAGE_KINDS, PORTS,
  SALE_CLAUSES, SALE_MODALITIES, TRANSPORT_WAYS,
} from "./customs.js";
export { RETENTIONS, retention, retentionLabel, type Retention } from "./retentions.js";
