import { describe, expect, test } from "bun:test";
import { cutEnvelope, joinEnvelope, storedEnvelope } from "./envelope-layout.js";

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** A stored DTE as the emission keeps it: declaration, root, accented Latin-1 text, trailing newline. */
const dte = (folio: number, extra = "") =>
  latin1(`<?xml version="1.0" encoding="ISO-8859-1"?>\n<DTE version="1.0"><Documento ID="F${folio}T33"><Folio>${folio}</Folio><RznSoc>Peñalolén & Cía${extra}</RznSoc></Documento><Signature>s${folio}</Signature></DTE>\n`);
const body = (xml: Uint8Array) => text(xml).replace(/^<\?xml[^>]*\?>\s*/, "").trimEnd();
const envelope = (docs: Uint8Array[]) =>
  latin1(`<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<EnvioDTE version="1.0"><SetDTE ID="SetDoc"><Caratula>ñ</Caratula>${docs.map(body).join("")}</SetDTE><Signature>env</Signature></EnvioDTE>`);

describe("an envelope stored without its documents' bytes", () => {
  const docs = [dte(1), dte(2, " más"), dte(3)];
  const whole = envelope(docs);
  const ids = ["dte_a", "dte_b", "dte_c"];
  const withIds = docs.map((xml, i) => ({ id: ids[i] as string, xml }));

  test("the skeleton keeps none of the documents' bytes, and joining gives back every byte", () => {
    const cut = cutEnvelope(whole, withIds);
    if (!cut) throw new Error("not cut");
    expect(cut.layout.map(([id]) => id)).toEqual(ids);
    expect(cut.skeleton.byteLength).toBe(whole.byteLength - docs.reduce((n, d) => n + Buffer.byteLength(body(d), "latin1"), 0));
    expect(text(cut.skeleton)).not.toContain("<DTE");
    expect(text(cut.skeleton)).toContain("<Caratula>ñ</Caratula></SetDTE>");
    const joined = joinEnvelope(cut.skeleton, cut.layout, new Map(withIds.map((d) => [d.id, d.xml])));
    expect(Buffer.from(joined).equals(Buffer.from(whole))).toBe(true);
  });

  test("a document whose bytes are not in the envelope (or not in its order) keeps the envelope whole", () => {
    const changed = [...withIds.slice(0, 2), { id: "dte_c", xml: dte(3, "!") }];
    expect(cutEnvelope(whole, changed)).toBeNull();
    expect(cutEnvelope(whole, [...withIds].reverse())).toBeNull();
    expect(cutEnvelope(whole, [{ id: "dte_x", xml: latin1("not xml") }])).toBeNull();
    const stored = storedEnvelope(whole, changed);
    expect(stored.layout).toBeNull();
    expect(stored.xml).toBe(whole);
  });

  test("stored form: skeleton and layout when the documents are there", () => {
    const stored = storedEnvelope(whole, withIds);
    expect(stored.layout).toHaveLength(3);
    expect(stored.xml.byteLength).toBeLessThan(whole.byteLength / 2);
  });

  test("joining without a document's bytes is an error, not a shorter envelope", () => {
    const cut = cutEnvelope(whole, withIds);
    if (!cut) throw new Error("not cut");
    expect(() => joinEnvelope(cut.skeleton, cut.layout, new Map([["dte_a", docs[0] as Uint8Array]]))).toThrow("dte_b");
    expect(() => joinEnvelope(cut.skeleton, cut.layout, new Map(withIds.map((d) => [d.id, latin1("<DTE/>")])))).toThrow();
  });

  test("works on views into a larger buffer (rows decoded by the driver)", () => {
    const pool = new Uint8Array(whole.byteLength + 7);
    pool.set(whole, 7);
    const view = pool.subarray(7);
    const cut = cutEnvelope(view, withIds);
    if (!cut) throw new Error("not cut");
    expect(Buffer.from(joinEnvelope(cut.skeleton, cut.layout, new Map(withIds.map((d) => [d.id, d.xml])))).equals(Buffer.from(whole))).toBe(true);
  });
});
