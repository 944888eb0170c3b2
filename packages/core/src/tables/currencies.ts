/**
 * Currencies of export documents (110–112). The XML names them by the SII's words (`TipMonType` of SiiTypes_v10.xsd),
 * not by ISO 4217 codes: `DOLAR USA`, never `USD` (the schema refuses it).
 */

/** Every value of `TipMonType`, as the schema spells it. */
export const SII_CURRENCIES = [
  "BOLIVAR", "BOLIVIANO", "CHELIN", "CORONA DIN", "CORONA NOR", "CORONA SC", "CRUZEIRO REAL", "DIRHAM", "DOLAR AUST",
  "DOLAR CAN", "DOLAR HK", "DOLAR NZ", "DOLAR SIN", "DOLAR TAI", "DOLAR USA", "DRACMA", "ESCUDO", "EURO", "FLORIN",
  "FRANCO BEL", "FRANCO FR", "FRANCO SZ", "GUARANI", "LIBRA EST", "LIRA", "MARCO AL", "MARCO FIN", "NUEVO SOL",
  "OTRAS MONEDAS", "PESETA", "PESO", "PESO CL", "PESO COL", "PESO MEX", "PESO URUG", "RAND", "RENMINBI", "RUPIA",
  "SUCRE", "YEN",
] as const;

export type SiiCurrency = (typeof SII_CURRENCIES)[number];

/**
 * ISO 4217 → the SII's name, for forms and sheets that speak ISO. Codes without a name of their own map to nothing
 * (the caller chooses `OTRAS MONEDAS` knowingly).
 */
export const ISO_TO_SII_CURRENCY: Readonly<Record<string, SiiCurrency>> = {
  USD: "DOLAR USA", EUR: "EURO", CLP: "PESO CL", GBP: "LIBRA EST", JPY: "YEN", CHF: "FRANCO SZ", CAD: "DOLAR CAN",
  AUD: "DOLAR AUST", NZD: "DOLAR NZ", HKD: "DOLAR HK", SGD: "DOLAR SIN", TWD: "DOLAR TAI", DKK: "CORONA DIN",
  NOK: "CORONA NOR", SEK: "CORONA SC", AED: "DIRHAM", ZAR: "RAND", VES: "BOLIVAR", BOB: "BOLIVIANO", PYG: "GUARANI",
  PEN: "NUEVO SOL", CNY: "RENMINBI", MXN: "PESO MEX", COP: "PESO COL", UYU: "PESO URUG", ARS: "PESO", INR: "RUPIA",
};

/**
 * Whether a text is one of the SII's currency names.
 *
 * @example
 * isSiiCurrency("DOLAR USA") // true
 * isSiiCurrency("USD")       // false
 */
export function isSiiCurrency(value: string): value is SiiCurrency {
  return (SII_CURRENCIES as readonly string[]).includes(value);
}

/**
 * The SII's name for an ISO 4217 code, or undefined.
 *
 * @example
 * siiCurrencyFromIso("usd") // "DOLAR USA"
 */
export function siiCurrencyFromIso(iso: string): SiiCurrency | undefined {
  return ISO_TO_SII_CURRENCY[iso.toUpperCase()];
}
