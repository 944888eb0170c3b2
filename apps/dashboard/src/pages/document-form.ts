/**
 * The emission form: tipo and date, receptor, lines, the reference a note needs, options — and a summary that shows
 * each line's amount and the totals while they are typed. Field names are the API's paths (`receptor.rut`,
 * `items[2].precio`, `referencia.folio`), so the server's validation errors land next to their fields.
 *
 * What depends on the tipo: boletas (39/41) may leave the receptor empty (the anonymous consumer, 66666666-6) and
 * default to prices with IVA included; exempt tipos (34/41) have no per-line exempt box and no IVA option; notes
 * (56/61) get the reference section, required; facturas and guías (33/34/52) get it optional, for information (the
 * guía a factura bills, a purchase order 801); only facturas get a payment term; a guía de despacho (52) gets its traslado and
 * transport (`dispatch-fields.ts`) and otherwise is typed like a factura 33.
 */
import type { EmitParams, Traslado, Transporte } from "@timbre/sdk";
import { isValidRut, normalizeRut } from "@timbre/core/rut";
import { ADDITIONAL_TAX_TIPOS, additionalTaxLabel } from "@timbre/core/totals";
import { draftTotals, parseAmount } from "../lib/amounts.js";
import { ApiError, type FieldError } from "../lib/api.js";
import { h, replace } from "../lib/dom.js";
import { money, TIPOS, TIPOS_CAF } from "../lib/format.js";
import { checkbox, field, formAlert, isChecked, value } from "../ui/form.js";
import { DISPATCH_GUIDE, dispatchFields } from "./dispatch-fields.js";
import { lineItems, type DraftLine } from "./line-items.js";
import { receptorIssuer, type ListedIssuer } from "./receptor-issuer.js";

const BOLETAS = [39, 41];
const EXEMPT = [34, 41];
const NOTES = [56, 61];
const FACTURAS = [33, 34];
/** Tipos whose reference is optional and informative: the guías a factura bills, the buyer's purchase order. */
const INFORMED = [33, 34, 52];
/** What an informative reference may name besides our tipos (formato DTE, TpoDocRef). */
const REFERENCE_TIPOS: Array<[number, string]> = [[801, "Orden de compra"], [802, "Nota de pedido"], [803, "Contrato"]];
const ANONYMOUS = { rut: "66666666-6", razon_social: "Consumidor final" };

/** What a form can start from: a tipo, and for a note the document it modifies. */
export interface Draft {
  tipo?: number;
  fecha?: string;
  receptor?: Partial<EmitParams["receptor"]>;
  items?: DraftLine[];
  precios_brutos?: boolean;
  descuento_global_porcentaje?: number;
  forma_pago?: number;
  observaciones?: string;
  referencia?: Partial<NonNullable<EmitParams["referencia"]>>;
  /** A guía de despacho's (52). */
  traslado?: Partial<Traslado>;
  transporte?: Transporte;
}

export interface EmissionForm {
  form: HTMLFormElement;
  /** The request body, or an ApiError-shaped VALIDATION_ERROR for what cannot even be sent (a price that is not a number). */
  read(): EmitParams;
  /** Region under the buttons for a preview. */
  preview: HTMLElement;
}

export interface EmissionFormOptions {
  draft: Draft;
  today: string;
  maxLines: (tipo: number) => number;
  foliosHint: (tipo: number) => string | null;
  submitLabel: string;
  /** The receptor this business last issued to with that RUT (normalized), to fill the fields still empty. */
  knownReceptor?: (rut: string) => Promise<Partial<EmitParams["receptor"]> | null>;
  /** The SII's list of authorised electronic issuers (`GET /issuers/{rut}`), shown beside the receptor's RUT. */
  listedIssuer?: ListedIssuer;
}

export function emissionForm(opts: EmissionFormOptions): EmissionForm {
  const d = opts.draft;
  const tipoField = field({ name: "tipo", label: "Tipo de documento", required: true, value: String(d.tipo ?? 33), options: TIPOS_CAF.map((t): [string, string] => [String(t), `${t} · ${TIPOS[t]}`]) });
  const foliosHint = h("p", { class: "hint", "aria-live": "polite" });
  tipoField.append(foliosHint);
  const fechaField = field({ name: "fecha", label: "Fecha de emisión", type: "date", required: true, value: d.fecha ?? opts.today, attrs: { max: opts.today }, hint: "La fecha tributaria del documento; no puede ser futura." });
  const formaPago = field({ name: "forma_pago", label: "Forma de pago", value: String(d.forma_pago ?? 2), options: [["1", "Contado"], ["2", "Crédito"], ["3", "Sin costo"]], hint: "Crédito es lo que el SII asume en una factura que no la indica." });

  const r = d.receptor ?? {};
  const receptorHint = h("p", { class: "hint" });
  const rutField = field({ name: "receptor.rut", label: "RUT", required: true, value: r.rut, attrs: { autocomplete: "off", placeholder: "76.192.083-9" } });
  const receptor = h(
    "fieldset",
    { class: "subfields" },
    h("legend", null, "Receptor"),
    receptorHint,
    h(
      "div",
      { class: "grid-2" },
      rutField,
      field({ name: "receptor.razon_social", label: "Razón social o nombre", required: true, value: r.razon_social, attrs: { maxlength: 100 } }),
      field({ name: "receptor.giro", label: "Giro", value: r.giro, attrs: { maxlength: 40 } }),
      field({ name: "receptor.direccion", label: "Dirección", value: r.direccion, attrs: { maxlength: 70 } }),
      field({ name: "receptor.comuna", label: "Comuna", value: r.comuna, attrs: { maxlength: 20 } }),
      field({ name: "receptor.ciudad", label: "Ciudad", value: r.ciudad, attrs: { maxlength: 20 } }),
      field({ name: "receptor.email", label: "Correo", type: "email", value: r.email, attrs: { maxlength: 80 } }),
    ),
  );

  // the tipo shown (the line limit depends on it); `refresh` is defined below and only called on user input
  let shownTipo = d.tipo ?? 33;
  const lines = lineItems({ lines: d.items ?? [], maxLines: () => opts.maxLines(shownTipo), onChange: () => refresh() });
  const gross = checkbox("precios_brutos", "Los precios incluyen IVA (precios brutos)", "Sin marcar, los precios son netos y se les suma el IVA. Marcado de partida en boletas: el precio es el que paga el cliente.", d.precios_brutos ?? BOLETAS.includes(d.tipo ?? 33));
  const itemsSection = h("fieldset", { class: "subfields", "data-field": "items" }, h("legend", null, "Ítems"), gross, lines.element, h("p", { class: "field-error", "aria-live": "polite" }));

  const dispatch = dispatchFields(d);

  const ref = d.referencia ?? {};
  const referenciaLegend = h("legend", null, "Documento que modifica");
  const codigoField = field({ name: "referencia.codigo", label: "Qué hace la nota", value: ref.codigo === undefined ? "" : String(ref.codigo), options: [["", "Según el monto (solo documentos emitidos con Timbre)"], ["1", "Anula el documento"], ["2", "Corrige texto (sin montos)"], ["3", "Corrige montos"]] });
  const razonHint = h("p", { class: "hint" });
  const razonField = field({ name: "referencia.razon", label: "Razón", required: true, value: ref.razon, attrs: { maxlength: 90 } });
  razonField.append(razonHint);
  const referencia = h(
    "fieldset",
    { class: "subfields" },
    referenciaLegend,
    h(
      "div",
      { class: "grid-2" },
      field({
        name: "referencia.tipo_doc",
        label: "Tipo",
        required: true,
        value: String(ref.tipo_doc ?? 33),
        options: [...TIPOS_CAF.map((t): [string, string] => [String(t), `${t} · ${TIPOS[t]}`]), ...REFERENCE_TIPOS.map(([t, n]): [string, string] => [String(t), `${t} · ${n}`])],
      }),
      field({ name: "referencia.folio", label: "Folio", required: true, value: ref.folio === undefined ? "" : String(ref.folio), attrs: { autocomplete: "off" } }),
      field({ name: "referencia.fecha", label: "Fecha del documento", type: "date", required: true, value: ref.fecha, attrs: { max: opts.today } }),
      codigoField,
    ),
    razonField,
  );

  const options = h(
    "fieldset",
    { class: "subfields" },
    h("legend", null, "Opciones"),
    h(
      "div",
      { class: "grid-2" },
      field({ name: "descuento_global_porcentaje", label: "Descuento global (%)", value: d.descuento_global_porcentaje === undefined ? undefined : String(d.descuento_global_porcentaje).replace(".", ","), attrs: { inputmode: "decimal", autocomplete: "off" } }),
      formaPago,
    ),
    field({ name: "observaciones", label: "Observaciones", multiline: true, value: d.observaciones, hint: "Texto libre impreso en el documento." }),
  );

  const summary = h("dl", { class: "facts totals" });
  const preview = h("div", { class: "pdf-preview" });
  const form = h(
    "form",
    { novalidate: true, "aria-label": "Emitir documento" },
    formAlert(),
    h(
      "div",
      { class: "columns columns-wide-left" },
      h("div", null, h("section", { class: "card" }, h("div", { class: "grid-2" }, tipoField, fechaField), receptor, dispatch.element, itemsSection, referencia, options)),
      h(
        "div",
        { class: "sticky" },
        h(
          "section",
          { class: "card", "aria-labelledby": "totals-title" },
          h("h2", { id: "totals-title" }, "Totales"),
          summary,
          h("div", { class: "actions" }, h("button", { type: "submit", class: "btn" }, opts.submitLabel), h("button", { type: "button", class: "btn btn-secondary", "data-action": "preview" }, "Vista previa PDF")),
          h("p", { class: "hint" }, "La vista previa no usa folio ni se envía al SII."),
        ),
      ),
    ),
    preview,
  );

  function tipo(): number {
    return Number(value(form, "tipo"));
  }

  const setRequired = (name: string, on: boolean) => {
    const wrapper = form.querySelector<HTMLElement>(`[data-field="${name}"]`);
    const control = wrapper?.querySelector<HTMLElement>("input, select, textarea");
    const label = wrapper?.querySelector("label");
    if (!wrapper || !control || !label) return;
    control.toggleAttribute("required", on);
    label.querySelector(".req")?.remove();
    if (on) label.append(h("span", { class: "req", "aria-hidden": "true" }, " *"));
  };

  const updateForTipo = () => {
    const t = tipo();
    const boleta = BOLETAS.includes(t);
    const noteOnBoleta = NOTES.includes(t) && BOLETAS.includes(Number(value(form, "referencia.tipo_doc")));
    for (const name of ["receptor.giro", "receptor.direccion", "receptor.comuna"]) setRequired(name, !boleta && !noteOnBoleta);
    setRequired("receptor.rut", !boleta);
    setRequired("receptor.razon_social", !boleta);
    receptorHint.textContent = boleta
      ? "Opcional en boletas: déjalo vacío para un consumidor final (RUT 66.666.666-6)."
      : noteOnBoleta
        ? "Una nota sobre una boleta no exige giro ni dirección."
        : "Giro, dirección y comuna son obligatorios en facturas, guías y notas.";
    const note = NOTES.includes(t);
    referencia.hidden = !note && !INFORMED.includes(t);
    referenciaLegend.textContent = note ? "Documento que modifica" : "Referencia (opcional)";
    codigoField.hidden = !note;
    for (const name of ["referencia.tipo_doc", "referencia.folio", "referencia.fecha", "referencia.razon"]) setRequired(name, note);
    razonHint.textContent = note
      ? "Se imprime en la nota: «Devolución de mercadería», «Error en el precio»…"
      : "Se imprime en el documento: la guía que factura, la orden de compra del cliente. Déjalo vacío si no hay.";
    dispatch.element.hidden = t !== DISPATCH_GUIDE;
    formaPago.hidden = !FACTURAS.includes(t);
    gross.hidden = EXEMPT.includes(t);
    lines.showExempt(!EXEMPT.includes(t));
    lines.showTaxes(ADDITIONAL_TAX_TIPOS.includes(t));
    if (shownTipo !== t && BOLETAS.includes(t) !== BOLETAS.includes(shownTipo)) {
      gross.querySelector<HTMLInputElement>("input")!.checked = boleta; // a boleta's prices usually include IVA, a factura's do not
    }
    shownTipo = t;
    const hint = opts.foliosHint(t);
    foliosHint.textContent = hint ?? "";
    foliosHint.hidden = hint === null;
    lines.renumber();
  };

  const read = (): EmitParams => {
    const problems: FieldError[] = [];
    const t = tipo();
    /** Empty → undefined (the server says what is required); not a number → a problem reported here. */
    const num = (name: string): number | undefined => {
      const text = value(form, name);
      if (text === "") return undefined;
      const n = parseAmount(text);
      if (n === null) problems.push({ field: name, reason: "number", message: "" });
      return n ?? undefined;
    };
    const items = lines.read(form, num, !EXEMPT.includes(t), ADDITIONAL_TAX_TIPOS.includes(t));
    const rec: Record<string, string> = {};
    for (const k of ["rut", "razon_social", "giro", "direccion", "comuna", "ciudad", "email"]) {
      const v = value(form, `receptor.${k}`);
      if (v !== "") rec[k] = v;
    }
    const body: EmitParams = {
      tipo: t as EmitParams["tipo"],
      fecha: value(form, "fecha") || undefined,
      receptor: (BOLETAS.includes(t) && !rec.rut && !rec.razon_social ? { ...ANONYMOUS } : rec) as unknown as EmitParams["receptor"],
      items,
    };
    if (!EXEMPT.includes(t)) body.precios_brutos = isChecked(form, "precios_brutos");
    const global = num("descuento_global_porcentaje");
    if (global !== undefined) body.descuento_global_porcentaje = global;
    if (FACTURAS.includes(t) && value(form, "forma_pago")) body.forma_pago = Number(value(form, "forma_pago")) as 1 | 2 | 3;
    if (value(form, "observaciones")) body.observaciones = value(form, "observaciones");
    if (t === DISPATCH_GUIDE) Object.assign(body, dispatch.read(form));
    const folio = value(form, "referencia.folio");
    // a factura's or guía's reference is sent only when a folio is given; a note's always (the server asks for it)
    if (NOTES.includes(t) || (INFORMED.includes(t) && folio !== "")) {
      const codigo = NOTES.includes(t) ? value(form, "referencia.codigo") : "";
      const razon = value(form, "referencia.razon");
      body.referencia = {
        tipo_doc: Number(value(form, "referencia.tipo_doc")),
        folio: /^\d+$/.test(folio) ? Number(folio) : folio,
        fecha: value(form, "referencia.fecha"),
        razon,
        ...(codigo ? { codigo: Number(codigo) as 1 | 2 | 3 } : {}),
      };
      if (!NOTES.includes(t) && razon === "") delete (body.referencia as { razon?: string }).razon;
    }
    if (problems.length > 0) throw new ApiError(422, "VALIDATION_ERROR", "invalid", { errors: problems });
    return body;
  };

  /** Each line's amount and the totals of the lines that can be computed so far. */
  function refresh(): void {
    let body: EmitParams | null = null;
    try {
      body = read();
    } catch {
      body = null;
    }
    const complete = body ? body.items.map((i) => typeof i.cantidad === "number" && typeof i.precio === "number" && i.cantidad > 0) : [];
    const totals = body ? draftTotals({ ...body, items: body.items.filter((_, i) => complete[i]) }) : null;
    let k = 0;
    lines.showAmounts(complete.map((ok) => (ok && totals ? (totals.lines[k++]?.montoItem ?? null) : null)));
    const t = tipo();
    const rowsOf = (pairs: Array<[string, string, boolean?]>) => pairs.flatMap(([label, text, strong]) => [h("dt", null, label), h("dd", { class: "num" }, strong ? h("strong", null, text) : text)]);
    if (!totals) {
      replace(summary, ...rowsOf([["Total", "—", true]]));
      return;
    }
    replace(
      summary,
      ...rowsOf([
        ...(EXEMPT.includes(t) ? [] : ([["Neto", money(totals.montoNeto)], [`IVA ${totals.tasaIva} %`, money(totals.montoIva)]] as Array<[string, string]>)),
        ...(totals.montoExento > 0 || EXEMPT.includes(t) ? ([["Exento", money(totals.montoExento)]] as Array<[string, string]>) : []),
        ...(totals.descuentoGlobal ? ([["Descuento global", `− ${money(totals.descuentoGlobal.monto)}`]] as Array<[string, string]>) : []),
        ...totals.impuestosAdicionales.map((x): [string, string] => [additionalTaxLabel(x.codigo), money(x.monto)]),
        ["Total", money(totals.montoTotal), true],
      ]),
    );
  }

  const issuer = opts.listedIssuer ? receptorIssuer(form, opts.listedIssuer) : null;
  if (issuer) rutField.append(issuer.element);

  updateForTipo();
  refresh();
  form.addEventListener("input", () => {
    refresh();
    issuer?.sync();
  });
  form.addEventListener("change", (event) => {
    const name = event.target instanceof HTMLSelectElement ? event.target.name : "";
    if (name === "tipo" || name === "referencia.tipo_doc") updateForTipo();
    if (event.target instanceof HTMLInputElement && event.target.name === "receptor.rut") {
      void fillKnownReceptor().then(() => issuer?.sync());
      void issuer?.check();
    }
    refresh();
  });

  /** A RUT this business issued to before fills the receptor fields that are still empty (never overwrites). */
  async function fillKnownReceptor(): Promise<void> {
    const typed = value(form, "receptor.rut");
    if (!opts.knownReceptor || !isValidRut(typed) || normalizeRut(typed) === ANONYMOUS.rut) return;
    const known = await opts.knownReceptor(normalizeRut(typed)).catch(() => null);
    if (!known || value(form, "receptor.rut") !== typed) return; // the user moved on meanwhile
    let filled = false;
    for (const k of ["razon_social", "giro", "direccion", "comuna", "ciudad", "email"] as const) {
      const input = form.elements.namedItem(`receptor.${k}`);
      const v = known[k];
      if (input instanceof HTMLInputElement && input.value.trim() === "" && v) {
        input.value = v;
        filled = true;
      }
    }
    if (filled) receptorHint.textContent = "Datos tomados del último documento emitido a este RUT. Revísalos.";
  }

  return { form, read, preview };
}
