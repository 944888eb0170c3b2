import { elementText, elementTexts, firstElement } from "../protocol/xml-text.js";

/** DTEUpload's `RECEPCIONDTE` answer. */
export interface RecepcionDte {
  status: string;
  /** 10 digits with leading zeros, kept as a string; absent when STATUS ≠ 0. */
  trackId: string | null;
  rutSender: string | null;
  rutCompany: string | null;
  file: string | null;
  timestamp: string | null;
  /** `DETAIL/ERROR` texts. */
  errors: string[];
}

/**
 * Parses `<RECEPCIONDTE>`; `null` when the text is not one (e.g. an HTML page).
 *
 * @example
 * parseRecepcionDte("<RECEPCIONDTE><STATUS>0</STATUS><TRACKID>0260003916</TRACKID></RECEPCIONDTE>")?.trackId; // "0260003916"
 */
export function parseRecepcionDte(text: string): RecepcionDte | null {
  const root = firstElement(text, "RECEPCIONDTE");
  if (root === undefined) return null;
  const xml = root.inner;
  const status = elementText(xml, "STATUS");
  if (status === null) return null;
  const detail = firstElement(xml, "DETAIL");
  return {
    status,
    trackId: elementText(xml, "TRACKID") || null,
    rutSender: elementText(xml, "RUTSENDER"),
    rutCompany: elementText(xml, "RUTCOMPANY"),
    file: elementText(xml, "FILE"),
    timestamp: elementText(xml, "TIMESTAMP"),
    errors: detail === undefined ? [] : elementTexts(detail.inner, "ERROR"),
  };
}
