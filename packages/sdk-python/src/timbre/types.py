"""Request and response shapes of the Timbre API, generated from its OpenAPI document.

Do not edit: run ``python3 scripts/generate_types.py <server>/v1/openapi.json``. Responses may gain fields
(API §7): treat unknown keys as normal.
"""

# fmt: off
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union  # noqa: F401


class GetHealthResponseChecks(TypedDict):
    database: str
    tax_authority: str


class GetHealthResponse(TypedDict):
    status: str
    version: str
    uptime_s: int
    checks: GetHealthResponseChecks


class PostRutValidateRequest(TypedDict):
    rut: str


class PostRutValidateResponse(TypedDict):
    valid: bool
    rut: Optional[str]
    formateado: Optional[str]
    dv_esperado: Optional[str]


class PostAuthRegisterRequest(TypedDict):
    email: str
    password: str
    nombre: str


class PostAuthRegisterResponseUser(TypedDict):
    id: str
    email: str
    nombre: str
    created_at: str


class PostAuthRegisterResponse(TypedDict):
    user: PostAuthRegisterResponseUser
    access_token: str
    refresh_token: str
    token_type: Literal['Bearer']
    expires_in: int


class PostAuthLoginRequest(TypedDict):
    email: str
    password: str


class PostAuthLoginResponseUser(TypedDict):
    id: str
    email: str
    nombre: str
    created_at: str


class PostAuthLoginResponse(TypedDict):
    user: PostAuthLoginResponseUser
    access_token: str
    refresh_token: str
    token_type: Literal['Bearer']
    expires_in: int


class PostAuthRefreshRequest(TypedDict):
    refresh_token: str


class PostAuthRefreshResponseUser(TypedDict):
    id: str
    email: str
    nombre: str
    created_at: str


class PostAuthRefreshResponse(TypedDict):
    user: PostAuthRefreshResponseUser
    access_token: str
    refresh_token: str
    token_type: Literal['Bearer']
    expires_in: int


class GetAuthMeResponseUser(TypedDict):
    id: str
    email: str
    nombre: str
    created_at: str


class GetAuthMeResponseAuthKey(TypedDict):
    id: str
    name: str
    environment: Literal['test', 'live']
    permissions: List[str]
    business_id: str


class _GetAuthMeResponseAuthRequired(TypedDict):
    type: str


class GetAuthMeResponseAuth(_GetAuthMeResponseAuthRequired, total=False):
    key: GetAuthMeResponseAuthKey


class GetAuthMeResponse(TypedDict):
    user: GetAuthMeResponseUser
    auth: GetAuthMeResponseAuth


class GetTokensParams(TypedDict, total=False):
    """Query of GET /v1/tokens."""
    page: int
    limit: int


class GetTokensItem(TypedDict):
    id: str
    name: str
    prefix: str
    last4: str
    environment: Literal['test', 'live']
    permissions: List[str]
    business_id: str
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]


class _PostTokensRequestRequired(TypedDict):
    name: str
    permissions: List[Literal['dte:read', 'dte:write', 'businesses:read', 'businesses:write', 'numerations:read', 'numerations:write', 'tokens:read', 'tokens:write', 'received:read', 'received:write', '*']]


class PostTokensRequest(_PostTokensRequestRequired, total=False):
    environment: Literal['test', 'live']
    business_id: str


class PostTokensResponse(TypedDict):
    id: str
    name: str
    prefix: str
    last4: str
    environment: Literal['test', 'live']
    permissions: List[str]
    business_id: str
    created_at: str
    last_used_at: Optional[str]
    revoked_at: Optional[str]
    key: str


class DeleteTokensByIdResponse(TypedDict):
    id: str
    revoked: Literal[True]
    revoked_at: str


class GetBusinessesParams(TypedDict, total=False):
    """Query of GET /v1/businesses."""
    page: int
    limit: int


class GetBusinessesItemResolucion(TypedDict):
    numero: int
    fecha: str


class GetBusinessesItemCertificate(TypedDict):
    rut_titular: Optional[str]
    nombre_titular: str
    emisor: str
    serial: str
    valid_from: str
    valid_to: str
    fingerprint_sha256: str


class GetBusinessesItemIntercambioImap(TypedDict):
    host: str
    user: str
    ultimo_chequeo_at: Optional[str]
    error: Union[Literal['auth'], Literal['tls'], Literal['unreachable'], Literal['mailbox'], None]


class GetBusinessesItemIntercambio(TypedDict):
    email: Optional[str]
    imap: Optional[GetBusinessesItemIntercambioImap]


class _GetBusinessesItemRequired(TypedDict):
    id: str
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[str]
    unidad_sii: Optional[str]
    resolucion: Optional[GetBusinessesItemResolucion]
    webhook_url: Optional[str]
    certificate: Optional[GetBusinessesItemCertificate]
    intercambio: GetBusinessesItemIntercambio
    created_at: str
    updated_at: str


class GetBusinessesItem(_GetBusinessesItemRequired, total=False):
    webhook_secret: str


class PostBusinessesRequestResolucion(TypedDict):
    numero: int
    fecha: str


class _PostBusinessesRequestRequired(TypedDict):
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str


class PostBusinessesRequest(_PostBusinessesRequestRequired, total=False):
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[Union[str, int]]
    unidad_sii: Optional[str]
    resolucion: Optional[PostBusinessesRequestResolucion]
    webhook_url: Optional[str]


class PostBusinessesResponseResolucion(TypedDict):
    numero: int
    fecha: str


class PostBusinessesResponseCertificate(TypedDict):
    rut_titular: Optional[str]
    nombre_titular: str
    emisor: str
    serial: str
    valid_from: str
    valid_to: str
    fingerprint_sha256: str


class PostBusinessesResponseIntercambioImap(TypedDict):
    host: str
    user: str
    ultimo_chequeo_at: Optional[str]
    error: Union[Literal['auth'], Literal['tls'], Literal['unreachable'], Literal['mailbox'], None]


class PostBusinessesResponseIntercambio(TypedDict):
    email: Optional[str]
    imap: Optional[PostBusinessesResponseIntercambioImap]


class _PostBusinessesResponseRequired(TypedDict):
    id: str
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[str]
    unidad_sii: Optional[str]
    resolucion: Optional[PostBusinessesResponseResolucion]
    webhook_url: Optional[str]
    certificate: Optional[PostBusinessesResponseCertificate]
    intercambio: PostBusinessesResponseIntercambio
    created_at: str
    updated_at: str


class PostBusinessesResponse(_PostBusinessesResponseRequired, total=False):
    webhook_secret: str


class GetBusinessesByIdResponseResolucion(TypedDict):
    numero: int
    fecha: str


class GetBusinessesByIdResponseCertificate(TypedDict):
    rut_titular: Optional[str]
    nombre_titular: str
    emisor: str
    serial: str
    valid_from: str
    valid_to: str
    fingerprint_sha256: str


class GetBusinessesByIdResponseIntercambioImap(TypedDict):
    host: str
    user: str
    ultimo_chequeo_at: Optional[str]
    error: Union[Literal['auth'], Literal['tls'], Literal['unreachable'], Literal['mailbox'], None]


class GetBusinessesByIdResponseIntercambio(TypedDict):
    email: Optional[str]
    imap: Optional[GetBusinessesByIdResponseIntercambioImap]


class _GetBusinessesByIdResponseRequired(TypedDict):
    id: str
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[str]
    unidad_sii: Optional[str]
    resolucion: Optional[GetBusinessesByIdResponseResolucion]
    webhook_url: Optional[str]
    certificate: Optional[GetBusinessesByIdResponseCertificate]
    intercambio: GetBusinessesByIdResponseIntercambio
    created_at: str
    updated_at: str


class GetBusinessesByIdResponse(_GetBusinessesByIdResponseRequired, total=False):
    webhook_secret: str


class PutBusinessesByIdRequestResolucion(TypedDict):
    numero: int
    fecha: str


class PutBusinessesByIdRequestIntercambio(TypedDict, total=False):
    imap_url: Optional[str]
    """`imaps://user:password@host:993/INBOX`, or `imap://…` with STARTTLS; sealed at rest, never returned"""


class PutBusinessesByIdRequest(TypedDict, total=False):
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[Union[str, int]]
    unidad_sii: Optional[str]
    resolucion: Optional[PutBusinessesByIdRequestResolucion]
    webhook_url: Optional[str]
    intercambio: PutBusinessesByIdRequestIntercambio


class PutBusinessesByIdResponseResolucion(TypedDict):
    numero: int
    fecha: str


class PutBusinessesByIdResponseCertificate(TypedDict):
    rut_titular: Optional[str]
    nombre_titular: str
    emisor: str
    serial: str
    valid_from: str
    valid_to: str
    fingerprint_sha256: str


class PutBusinessesByIdResponseIntercambioImap(TypedDict):
    host: str
    user: str
    ultimo_chequeo_at: Optional[str]
    error: Union[Literal['auth'], Literal['tls'], Literal['unreachable'], Literal['mailbox'], None]


class PutBusinessesByIdResponseIntercambio(TypedDict):
    email: Optional[str]
    imap: Optional[PutBusinessesByIdResponseIntercambioImap]


class _PutBusinessesByIdResponseRequired(TypedDict):
    id: str
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[str]
    unidad_sii: Optional[str]
    resolucion: Optional[PutBusinessesByIdResponseResolucion]
    webhook_url: Optional[str]
    certificate: Optional[PutBusinessesByIdResponseCertificate]
    intercambio: PutBusinessesByIdResponseIntercambio
    created_at: str
    updated_at: str


class PutBusinessesByIdResponse(_PutBusinessesByIdResponseRequired, total=False):
    webhook_secret: str


class DeleteBusinessesByIdResponse(TypedDict):
    id: str
    deleted: Literal[True]


class PostBusinessesByIdCertificateRequest(TypedDict):
    pfx_base64: str
    password: str


class PostBusinessesByIdCertificateResponseResolucion(TypedDict):
    numero: int
    fecha: str


class PostBusinessesByIdCertificateResponseCertificate(TypedDict):
    rut_titular: Optional[str]
    nombre_titular: str
    emisor: str
    serial: str
    valid_from: str
    valid_to: str
    fingerprint_sha256: str


class PostBusinessesByIdCertificateResponseIntercambioImap(TypedDict):
    host: str
    user: str
    ultimo_chequeo_at: Optional[str]
    error: Union[Literal['auth'], Literal['tls'], Literal['unreachable'], Literal['mailbox'], None]


class PostBusinessesByIdCertificateResponseIntercambio(TypedDict):
    email: Optional[str]
    imap: Optional[PostBusinessesByIdCertificateResponseIntercambioImap]


class _PostBusinessesByIdCertificateResponseRequired(TypedDict):
    id: str
    rut: str
    razon_social: str
    giro: str
    acteco: List[int]
    direccion: str
    comuna: str
    ciudad: Optional[str]
    email: Optional[str]
    telefono: Optional[str]
    sucursal_sii: Optional[str]
    unidad_sii: Optional[str]
    resolucion: Optional[PostBusinessesByIdCertificateResponseResolucion]
    webhook_url: Optional[str]
    certificate: Optional[PostBusinessesByIdCertificateResponseCertificate]
    intercambio: PostBusinessesByIdCertificateResponseIntercambio
    created_at: str
    updated_at: str


class PostBusinessesByIdCertificateResponse(_PostBusinessesByIdCertificateResponseRequired, total=False):
    webhook_secret: str


class PostBusinessesByIdWebhookSecretResponse(TypedDict):
    webhook_secret: str


class GetBusinessesByIdNumerationsParams(TypedDict, total=False):
    """Query of GET /v1/businesses/{id}/numerations."""
    page: int
    limit: int
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """only ranges of this tipo"""
    estado: Literal['activa', 'agotada', 'vencida']
    """only ranges in this state"""


class GetBusinessesByIdNumerationsItem(TypedDict):
    id: str
    business_id: str
    tipo: int
    desde: int
    hasta: int
    siguiente_folio: int
    disponibles: int
    usados: int
    fecha_autorizacion: str
    vence_el: Optional[str]
    environment: Literal['test', 'live']
    estado: Literal['activa', 'agotada', 'vencida']
    created_at: str


class PostBusinessesByIdNumerationsRequest(TypedDict):
    caf_xml: str


class PostBusinessesByIdNumerationsResponse(TypedDict):
    id: str
    business_id: str
    tipo: int
    desde: int
    hasta: int
    siguiente_folio: int
    disponibles: int
    usados: int
    fecha_autorizacion: str
    vence_el: Optional[str]
    environment: Literal['test', 'live']
    estado: Literal['activa', 'agotada', 'vencida']
    created_at: str


class GetNumerationsByIdResponse(TypedDict):
    id: str
    business_id: str
    tipo: int
    desde: int
    hasta: int
    siguiente_folio: int
    disponibles: int
    usados: int
    fecha_autorizacion: str
    vence_el: Optional[str]
    environment: Literal['test', 'live']
    estado: Literal['activa', 'agotada', 'vencida']
    created_at: str


class PostSandboxNumerationsRequest(TypedDict):
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    cantidad: int


class PostSandboxNumerationsResponse(TypedDict):
    id: str
    business_id: str
    tipo: int
    desde: int
    hasta: int
    siguiente_folio: int
    disponibles: int
    usados: int
    fecha_autorizacion: str
    vence_el: Optional[str]
    environment: Literal['test', 'live']
    estado: Literal['activa', 'agotada', 'vencida']
    created_at: str


class _PostDteEmitRequest1ReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDteEmitRequest1Receptor(_PostDteEmitRequest1ReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDteEmitRequest1ItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDteEmitRequest1Item(_PostDteEmitRequest1ItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    impuesto_adicional: int
    """extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only"""


class _PostDteEmitRequest1ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest1Referencia(_PostDteEmitRequest1ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest1Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest1Referencia2(_PostDteEmitRequest1Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest1TrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class PostDteEmitRequest1Traslado(_PostDteEmitRequest1TrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class PostDteEmitRequest1TransporteChofer(TypedDict):
    rut: str
    nombre: str


class PostDteEmitRequest1Transporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: PostDteEmitRequest1TransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _PostDteEmitRequest1Required(TypedDict):
    tipo: Union[Literal[33], Literal[34], Literal[39], Literal[41], Literal[52], Literal[56], Literal[61]]
    receptor: PostDteEmitRequest1Receptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDteEmitRequest1Item]


class PostDteEmitRequest1(_PostDteEmitRequest1Required, total=False):
    fecha: str
    precios_brutos: bool
    """Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52."""
    referencia: PostDteEmitRequest1Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteEmitRequest1Referencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str
    traslado: PostDteEmitRequest1Traslado
    transporte: PostDteEmitRequest1Transporte


class _PostDteEmitRequest2ReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDteEmitRequest2Receptor(_PostDteEmitRequest2ReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDteEmitRequest2ItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDteEmitRequest2Item(_PostDteEmitRequest2ItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    retencion: Optional[int]
    """ImptoReten code of the IVA retained on the line: 15 IVA retenido total (default), the partial codes 30, 32, 33, 34, 36, 37, 48 and their totals 301…481, 31, 38, 39, 41, 47, 49; null retains nothing"""


class _PostDteEmitRequest2ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest2Referencia(_PostDteEmitRequest2ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest2Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest2Referencia2(_PostDteEmitRequest2Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest2Required(TypedDict):
    tipo: Union[Literal[46], Literal[56], Literal[61]]
    receptor: PostDteEmitRequest2Receptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDteEmitRequest2Item]


class PostDteEmitRequest2(_PostDteEmitRequest2Required, total=False):
    fecha: str
    precios_brutos: bool
    """not allowed on a 46: its prices are net"""
    referencia: PostDteEmitRequest2Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteEmitRequest2Referencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str


class _PostDteEmitRequest3ReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDteEmitRequest3Receptor(_PostDteEmitRequest3ReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDteEmitRequest3LiquidacionDocumentoRequired(TypedDict):
    tipo_doc_liq: int
    """TpoDocLiq: the settled document's tipo (30, 33, 35, 39, 56…) or 99"""
    nombre: str
    monto: int
    """MontoItem in pesos, may be negative"""


class PostDteEmitRequest3LiquidacionDocumento(_PostDteEmitRequest3LiquidacionDocumentoRequired, total=False):
    descripcion: str
    cantidad: float
    unidad: str
    exento: bool


class _PostDteEmitRequest3LiquidacionComisioneRequired(TypedDict):
    tipo: Union[Literal['C'], Literal['O']]
    """C comisión, O otros cargos"""
    descripcion: str
    monto_neto: int
    """ValComNeto, may be negative; its IVA is computed"""


class PostDteEmitRequest3LiquidacionComisione(_PostDteEmitRequest3LiquidacionComisioneRequired, total=False):
    tasa_comision: float
    monto_exento: int


class _PostDteEmitRequest3LiquidacionRequired(TypedDict):
    documentos: List[PostDteEmitRequest3LiquidacionDocumento]


class PostDteEmitRequest3Liquidacion(_PostDteEmitRequest3LiquidacionRequired, total=False):
    comisiones: List[PostDteEmitRequest3LiquidacionComisione]


class _PostDteEmitRequest3ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest3Referencia(_PostDteEmitRequest3ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest3Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest3Referencia2(_PostDteEmitRequest3Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest3Required(TypedDict):
    tipo: Union[Literal[43], Literal[56], Literal[61]]
    receptor: PostDteEmitRequest3Receptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    liquidacion: PostDteEmitRequest3Liquidacion


class PostDteEmitRequest3(_PostDteEmitRequest3Required, total=False):
    fecha: str
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    referencia: PostDteEmitRequest3Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteEmitRequest3Referencia2]


class PostDteEmitRequest4ReceptorExtranjero(TypedDict, total=False):
    num_id: str
    nacionalidad: int
    """Aduana country code (225 U.S.A., 504 ITALIA…)"""


class _PostDteEmitRequest4ReceptorRequired(TypedDict):
    razon_social: str


class PostDteEmitRequest4Receptor(_PostDteEmitRequest4ReceptorRequired, total=False):
    """the foreign buyer; its RUT is 55555555-5"""
    extranjero: PostDteEmitRequest4ReceptorExtranjero
    giro: str
    direccion: str
    ciudad: str
    email: str


class _PostDteEmitRequest4ItemRequired(TypedDict):
    nombre: str
    cantidad: Union[float, str]
    """QtyItem, up to 6 decimals"""
    precio: Union[float, str]
    """PrcItem in the document's currency, up to 6 decimals"""


class PostDteEmitRequest4Item(_PostDteEmitRequest4ItemRequired, total=False):
    unidad: str
    descripcion: str
    codigo: str
    descuento_porcentaje: float
    recargo_porcentaje: float


class _PostDteEmitRequest4ExportacionBultoRequired(TypedDict):
    tipo: int
    """CodTpoBultos"""
    cantidad: int
    marcas: str


class PostDteEmitRequest4ExportacionBulto(_PostDteEmitRequest4ExportacionBultoRequired, total=False):
    id_container: str
    sello: str
    emisor_sello: str


class PostDteEmitRequest4Exportacion(TypedDict, total=False):
    modalidad_venta: int
    """CodModVenta"""
    clausula_venta: int
    """CodClauVenta"""
    total_clausula: Union[float, str]
    """TotClauVenta, 2 decimals"""
    via_transporte: int
    """CodViaTransp"""
    nombre_transporte: str
    puerto_embarque: int
    """CodPtoEmbarque"""
    puerto_desembarque: int
    """CodPtoDesemb"""
    tara: Union[float, str]
    """Tara"""
    unidad_tara: int
    """CodUnidMedTara"""
    peso_bruto: Union[float, str]
    """PesoBruto"""
    unidad_peso_bruto: int
    """CodUnidPesoBruto"""
    peso_neto: Union[float, str]
    """PesoNeto"""
    unidad_peso_neto: int
    """CodUnidPesoNeto"""
    total_items: int
    bultos: List[PostDteEmitRequest4ExportacionBulto]
    flete: Union[float, str]
    """MntFlete in the document's currency; also a global charge that adds to the total"""
    seguro: Union[float, str]
    """MntSeguro, likewise"""
    pais_receptor: int
    """CodPaisRecep"""
    pais_destino: int
    """CodPaisDestin"""
    indicador_servicio: Union[Literal[3], Literal[4], Literal[5]]
    """IndServicio: 3 servicios calificados, 4 hotelería, 5 transporte terrestre internacional"""


class _PostDteEmitRequest4ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest4Referencia(_PostDteEmitRequest4ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest4Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequest4Referencia2(_PostDteEmitRequest4Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequest4Required(TypedDict):
    tipo: Union[Literal[110], Literal[111], Literal[112]]
    receptor: PostDteEmitRequest4Receptor
    """the foreign buyer; its RUT is 55555555-5"""
    items: List[PostDteEmitRequest4Item]
    moneda: str
    """TpoMoneda by the SII's name ("DOLAR USA", "EURO"…); an ISO code is refused"""
    tipo_cambio: Union[float, str]
    """pesos per unit of moneda (OtraMoneda/TpoCambio), up to 4 decimals"""


class PostDteEmitRequest4(_PostDteEmitRequest4Required, total=False):
    fecha: str
    forma_pago_exportacion: int
    """FmaPagExp: 1 COB1, 2 COBRANZA, 11 ACRED, 12 CBOF, 21 S/PAGO, 32 ANTICIPO…"""
    fecha_cancelacion: str
    """extension: FchCancel, required with forma_pago_exportacion 32"""
    exportacion: PostDteEmitRequest4Exportacion
    referencia: PostDteEmitRequest4Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteEmitRequest4Referencia2]


PostDteEmitRequest = Union[PostDteEmitRequest1, PostDteEmitRequest2, PostDteEmitRequest3, PostDteEmitRequest4]


class PostDteEmitResponseReceptor(TypedDict):
    rut: str
    razon_social: Optional[str]
    """null when the document was stored without a name (the column is nullable: a client must handle it)"""


class _PostDteEmitResponseRequired(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: PostDteEmitResponseReceptor
    monto_neto: int
    monto_exento: float
    monto_iva: int
    monto_total: float
    """pesos; an export's in its currency (up to 4 decimals), in lists too, its pesos in `monto_total_pesos`"""
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


class PostDteEmitResponse(_PostDteEmitResponseRequired, total=False):
    monto_iva_retenido: int
    """46: the IVA the buyer retains"""
    monto_iva_no_retenido: int
    """46: IVANoRet"""
    moneda: str
    """110–112: TpoMoneda"""
    tipo_cambio: float
    """110–112: pesos per unit"""
    monto_total_pesos: int
    """110–112: MntTotOtrMnda"""


class _PostDteBatchRequestDocumentReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDteBatchRequestDocumentReceptor(_PostDteBatchRequestDocumentReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDteBatchRequestDocumentItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDteBatchRequestDocumentItem(_PostDteBatchRequestDocumentItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    impuesto_adicional: int
    """extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only"""


class _PostDteBatchRequestDocumentReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteBatchRequestDocumentReferencia(_PostDteBatchRequestDocumentReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteBatchRequestDocumentReferencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteBatchRequestDocumentReferencia2(_PostDteBatchRequestDocumentReferencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteBatchRequestDocumentTrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class PostDteBatchRequestDocumentTraslado(_PostDteBatchRequestDocumentTrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class PostDteBatchRequestDocumentTransporteChofer(TypedDict):
    rut: str
    nombre: str


class PostDteBatchRequestDocumentTransporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: PostDteBatchRequestDocumentTransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _PostDteBatchRequestDocumentRequired(TypedDict):
    tipo: Union[Literal[33], Literal[34], Literal[39], Literal[41], Literal[52], Literal[56], Literal[61]]
    receptor: PostDteBatchRequestDocumentReceptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDteBatchRequestDocumentItem]


class PostDteBatchRequestDocument(_PostDteBatchRequestDocumentRequired, total=False):
    fecha: str
    precios_brutos: bool
    """Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52."""
    referencia: PostDteBatchRequestDocumentReferencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteBatchRequestDocumentReferencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str
    traslado: PostDteBatchRequestDocumentTraslado
    transporte: PostDteBatchRequestDocumentTransporte
    idempotency_key: str
    """this document's own idempotency key (extension): emitted before under it, it is answered, not emitted again"""


class PostDteBatchRequest(TypedDict):
    documents: List[PostDteBatchRequestDocument]


class PostDteBatchResponseResultDataReceptor(TypedDict):
    rut: str
    razon_social: Optional[str]
    """null when the document was stored without a name (the column is nullable: a client must handle it)"""


class _PostDteBatchResponseResultDataRequired(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: PostDteBatchResponseResultDataReceptor
    monto_neto: int
    monto_exento: float
    monto_iva: int
    monto_total: float
    """pesos; an export's in its currency (up to 4 decimals), in lists too, its pesos in `monto_total_pesos`"""
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


class PostDteBatchResponseResultData(_PostDteBatchResponseResultDataRequired, total=False):
    monto_iva_retenido: int
    """46: the IVA the buyer retains"""
    monto_iva_no_retenido: int
    """46: IVANoRet"""
    moneda: str
    """110–112: TpoMoneda"""
    tipo_cambio: float
    """110–112: pesos per unit"""
    monto_total_pesos: int
    """110–112: MntTotOtrMnda"""


class _PostDteBatchResponseResultErrorRequired(TypedDict):
    code: str
    message: str


class PostDteBatchResponseResultError(_PostDteBatchResponseResultErrorRequired, total=False):
    details: Dict[str, Any]


class _PostDteBatchResponseResultRequired(TypedDict):
    index: int
    success: bool


class PostDteBatchResponseResult(_PostDteBatchResponseResultRequired, total=False):
    data: PostDteBatchResponseResultData
    error: PostDteBatchResponseResultError
    replayed: Literal[True]
    """the document's idempotency_key named a document emitted before: this one, nothing emitted now"""


class PostDteBatchResponse(TypedDict):
    results: List[PostDteBatchResponseResult]


class _PostDteBatchPreviewRequestDocumentReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDteBatchPreviewRequestDocumentReceptor(_PostDteBatchPreviewRequestDocumentReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDteBatchPreviewRequestDocumentItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDteBatchPreviewRequestDocumentItem(_PostDteBatchPreviewRequestDocumentItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    impuesto_adicional: int
    """extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only"""


class _PostDteBatchPreviewRequestDocumentReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteBatchPreviewRequestDocumentReferencia(_PostDteBatchPreviewRequestDocumentReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteBatchPreviewRequestDocumentReferencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteBatchPreviewRequestDocumentReferencia2(_PostDteBatchPreviewRequestDocumentReferencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteBatchPreviewRequestDocumentTrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class PostDteBatchPreviewRequestDocumentTraslado(_PostDteBatchPreviewRequestDocumentTrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class PostDteBatchPreviewRequestDocumentTransporteChofer(TypedDict):
    rut: str
    nombre: str


class PostDteBatchPreviewRequestDocumentTransporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: PostDteBatchPreviewRequestDocumentTransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _PostDteBatchPreviewRequestDocumentRequired(TypedDict):
    tipo: Union[Literal[33], Literal[34], Literal[39], Literal[41], Literal[52], Literal[56], Literal[61]]
    receptor: PostDteBatchPreviewRequestDocumentReceptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDteBatchPreviewRequestDocumentItem]


class PostDteBatchPreviewRequestDocument(_PostDteBatchPreviewRequestDocumentRequired, total=False):
    fecha: str
    precios_brutos: bool
    """Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52."""
    referencia: PostDteBatchPreviewRequestDocumentReferencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteBatchPreviewRequestDocumentReferencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str
    traslado: PostDteBatchPreviewRequestDocumentTraslado
    transporte: PostDteBatchPreviewRequestDocumentTransporte
    idempotency_key: str
    """this document's own idempotency key (extension): emitted before under it, it is answered, not emitted again"""


class PostDteBatchPreviewRequest(TypedDict):
    documents: List[PostDteBatchPreviewRequestDocument]


class PostDteBatchPreviewResponseResultDataDocument(TypedDict):
    id: str
    tipo: int
    folio: int
    estado: str
    fecha_emision: str


class _PostDteBatchPreviewResponseResultDataRequired(TypedDict):
    totals: Dict[str, Any]


class PostDteBatchPreviewResponseResultData(_PostDteBatchPreviewResponseResultDataRequired, total=False):
    document: PostDteBatchPreviewResponseResultDataDocument


class _PostDteBatchPreviewResponseResultErrorRequired(TypedDict):
    code: str
    message: str


class PostDteBatchPreviewResponseResultError(_PostDteBatchPreviewResponseResultErrorRequired, total=False):
    details: Dict[str, Any]


class _PostDteBatchPreviewResponseResultRequired(TypedDict):
    index: int
    success: bool


class PostDteBatchPreviewResponseResult(_PostDteBatchPreviewResponseResultRequired, total=False):
    data: PostDteBatchPreviewResponseResultData
    error: PostDteBatchPreviewResponseResultError
    replayed: Literal[True]
    """already emitted under the document's idempotency_key: the batch would answer that document"""


class PostDteBatchPreviewResponse(TypedDict):
    results: List[PostDteBatchPreviewResponseResult]


class PostDtePreviewParams(TypedDict, total=False):
    """Query of POST /v1/dte/preview."""
    format: Literal['json', 'pdf']
    """`json` (default): totals and XML; `pdf`: the printed preview"""


class _PostDtePreviewRequest1ReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDtePreviewRequest1Receptor(_PostDtePreviewRequest1ReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDtePreviewRequest1ItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDtePreviewRequest1Item(_PostDtePreviewRequest1ItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    impuesto_adicional: int
    """extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only"""


class _PostDtePreviewRequest1ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest1Referencia(_PostDtePreviewRequest1ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest1Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest1Referencia2(_PostDtePreviewRequest1Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest1TrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class PostDtePreviewRequest1Traslado(_PostDtePreviewRequest1TrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class PostDtePreviewRequest1TransporteChofer(TypedDict):
    rut: str
    nombre: str


class PostDtePreviewRequest1Transporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: PostDtePreviewRequest1TransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _PostDtePreviewRequest1Required(TypedDict):
    tipo: Union[Literal[33], Literal[34], Literal[39], Literal[41], Literal[52], Literal[56], Literal[61]]
    receptor: PostDtePreviewRequest1Receptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDtePreviewRequest1Item]


class PostDtePreviewRequest1(_PostDtePreviewRequest1Required, total=False):
    fecha: str
    precios_brutos: bool
    """Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52."""
    referencia: PostDtePreviewRequest1Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDtePreviewRequest1Referencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str
    traslado: PostDtePreviewRequest1Traslado
    transporte: PostDtePreviewRequest1Transporte


class _PostDtePreviewRequest2ReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDtePreviewRequest2Receptor(_PostDtePreviewRequest2ReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDtePreviewRequest2ItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDtePreviewRequest2Item(_PostDtePreviewRequest2ItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    retencion: Optional[int]
    """ImptoReten code of the IVA retained on the line: 15 IVA retenido total (default), the partial codes 30, 32, 33, 34, 36, 37, 48 and their totals 301…481, 31, 38, 39, 41, 47, 49; null retains nothing"""


class _PostDtePreviewRequest2ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest2Referencia(_PostDtePreviewRequest2ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest2Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest2Referencia2(_PostDtePreviewRequest2Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest2Required(TypedDict):
    tipo: Union[Literal[46], Literal[56], Literal[61]]
    receptor: PostDtePreviewRequest2Receptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDtePreviewRequest2Item]


class PostDtePreviewRequest2(_PostDtePreviewRequest2Required, total=False):
    fecha: str
    precios_brutos: bool
    """not allowed on a 46: its prices are net"""
    referencia: PostDtePreviewRequest2Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDtePreviewRequest2Referencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str


class _PostDtePreviewRequest3ReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDtePreviewRequest3Receptor(_PostDtePreviewRequest3ReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDtePreviewRequest3LiquidacionDocumentoRequired(TypedDict):
    tipo_doc_liq: int
    """TpoDocLiq: the settled document's tipo (30, 33, 35, 39, 56…) or 99"""
    nombre: str
    monto: int
    """MontoItem in pesos, may be negative"""


class PostDtePreviewRequest3LiquidacionDocumento(_PostDtePreviewRequest3LiquidacionDocumentoRequired, total=False):
    descripcion: str
    cantidad: float
    unidad: str
    exento: bool


class _PostDtePreviewRequest3LiquidacionComisioneRequired(TypedDict):
    tipo: Union[Literal['C'], Literal['O']]
    """C comisión, O otros cargos"""
    descripcion: str
    monto_neto: int
    """ValComNeto, may be negative; its IVA is computed"""


class PostDtePreviewRequest3LiquidacionComisione(_PostDtePreviewRequest3LiquidacionComisioneRequired, total=False):
    tasa_comision: float
    monto_exento: int


class _PostDtePreviewRequest3LiquidacionRequired(TypedDict):
    documentos: List[PostDtePreviewRequest3LiquidacionDocumento]


class PostDtePreviewRequest3Liquidacion(_PostDtePreviewRequest3LiquidacionRequired, total=False):
    comisiones: List[PostDtePreviewRequest3LiquidacionComisione]


class _PostDtePreviewRequest3ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest3Referencia(_PostDtePreviewRequest3ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest3Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest3Referencia2(_PostDtePreviewRequest3Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest3Required(TypedDict):
    tipo: Union[Literal[43], Literal[56], Literal[61]]
    receptor: PostDtePreviewRequest3Receptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    liquidacion: PostDtePreviewRequest3Liquidacion


class PostDtePreviewRequest3(_PostDtePreviewRequest3Required, total=False):
    fecha: str
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    referencia: PostDtePreviewRequest3Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDtePreviewRequest3Referencia2]


class PostDtePreviewRequest4ReceptorExtranjero(TypedDict, total=False):
    num_id: str
    nacionalidad: int
    """Aduana country code (225 U.S.A., 504 ITALIA…)"""


class _PostDtePreviewRequest4ReceptorRequired(TypedDict):
    razon_social: str


class PostDtePreviewRequest4Receptor(_PostDtePreviewRequest4ReceptorRequired, total=False):
    """the foreign buyer; its RUT is 55555555-5"""
    extranjero: PostDtePreviewRequest4ReceptorExtranjero
    giro: str
    direccion: str
    ciudad: str
    email: str


class _PostDtePreviewRequest4ItemRequired(TypedDict):
    nombre: str
    cantidad: Union[float, str]
    """QtyItem, up to 6 decimals"""
    precio: Union[float, str]
    """PrcItem in the document's currency, up to 6 decimals"""


class PostDtePreviewRequest4Item(_PostDtePreviewRequest4ItemRequired, total=False):
    unidad: str
    descripcion: str
    codigo: str
    descuento_porcentaje: float
    recargo_porcentaje: float


class _PostDtePreviewRequest4ExportacionBultoRequired(TypedDict):
    tipo: int
    """CodTpoBultos"""
    cantidad: int
    marcas: str


class PostDtePreviewRequest4ExportacionBulto(_PostDtePreviewRequest4ExportacionBultoRequired, total=False):
    id_container: str
    sello: str
    emisor_sello: str


class PostDtePreviewRequest4Exportacion(TypedDict, total=False):
    modalidad_venta: int
    """CodModVenta"""
    clausula_venta: int
    """CodClauVenta"""
    total_clausula: Union[float, str]
    """TotClauVenta, 2 decimals"""
    via_transporte: int
    """CodViaTransp"""
    nombre_transporte: str
    puerto_embarque: int
    """CodPtoEmbarque"""
    puerto_desembarque: int
    """CodPtoDesemb"""
    tara: Union[float, str]
    """Tara"""
    unidad_tara: int
    """CodUnidMedTara"""
    peso_bruto: Union[float, str]
    """PesoBruto"""
    unidad_peso_bruto: int
    """CodUnidPesoBruto"""
    peso_neto: Union[float, str]
    """PesoNeto"""
    unidad_peso_neto: int
    """CodUnidPesoNeto"""
    total_items: int
    bultos: List[PostDtePreviewRequest4ExportacionBulto]
    flete: Union[float, str]
    """MntFlete in the document's currency; also a global charge that adds to the total"""
    seguro: Union[float, str]
    """MntSeguro, likewise"""
    pais_receptor: int
    """CodPaisRecep"""
    pais_destino: int
    """CodPaisDestin"""
    indicador_servicio: Union[Literal[3], Literal[4], Literal[5]]
    """IndServicio: 3 servicios calificados, 4 hotelería, 5 transporte terrestre internacional"""


class _PostDtePreviewRequest4ReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest4Referencia(_PostDtePreviewRequest4ReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest4Referencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequest4Referencia2(_PostDtePreviewRequest4Referencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequest4Required(TypedDict):
    tipo: Union[Literal[110], Literal[111], Literal[112]]
    receptor: PostDtePreviewRequest4Receptor
    """the foreign buyer; its RUT is 55555555-5"""
    items: List[PostDtePreviewRequest4Item]
    moneda: str
    """TpoMoneda by the SII's name ("DOLAR USA", "EURO"…); an ISO code is refused"""
    tipo_cambio: Union[float, str]
    """pesos per unit of moneda (OtraMoneda/TpoCambio), up to 4 decimals"""


class PostDtePreviewRequest4(_PostDtePreviewRequest4Required, total=False):
    fecha: str
    forma_pago_exportacion: int
    """FmaPagExp: 1 COB1, 2 COBRANZA, 11 ACRED, 12 CBOF, 21 S/PAGO, 32 ANTICIPO…"""
    fecha_cancelacion: str
    """extension: FchCancel, required with forma_pago_exportacion 32"""
    exportacion: PostDtePreviewRequest4Exportacion
    referencia: PostDtePreviewRequest4Referencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDtePreviewRequest4Referencia2]


PostDtePreviewRequest = Union[PostDtePreviewRequest1, PostDtePreviewRequest2, PostDtePreviewRequest3, PostDtePreviewRequest4]


class PostDtePreviewResponse(TypedDict):
    totals: Dict[str, Any]
    xml_preview: str


class PostDteByIdAnularRequestReceptor(TypedDict, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    rut: str
    razon_social: str
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class PostDteByIdAnularRequest(TypedDict, total=False):
    razon: str
    fecha: str
    receptor: PostDteByIdAnularRequestReceptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""


class PostDteByIdAnularResponseReceptor(TypedDict):
    rut: str
    razon_social: Optional[str]
    """null when the document was stored without a name (the column is nullable: a client must handle it)"""


class _PostDteByIdAnularResponseRequired(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: PostDteByIdAnularResponseReceptor
    monto_neto: int
    monto_exento: float
    monto_iva: int
    monto_total: float
    """pesos; an export's in its currency (up to 4 decimals), in lists too, its pesos in `monto_total_pesos`"""
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


class PostDteByIdAnularResponse(_PostDteByIdAnularResponseRequired, total=False):
    monto_iva_retenido: int
    """46: the IVA the buyer retains"""
    monto_iva_no_retenido: int
    """46: IVANoRet"""
    moneda: str
    """110–112: TpoMoneda"""
    tipo_cambio: float
    """110–112: pesos per unit"""
    monto_total_pesos: int
    """110–112: MntTotOtrMnda"""


class PostDteByIdEnviarRequest(TypedDict, total=False):
    email: str


class PostDteByIdEnviarResponseRespuesta(TypedDict):
    tipo: Literal['recepcion', 'resultado', 'recibo']
    codigo: int
    glosa: str
    at: str


class PostDteByIdEnviarResponse(TypedDict):
    destinatarios: List[str]
    estado: Literal['PENDIENTE', 'ENVIADO', 'FALLIDO', 'SIN_DESTINATARIO', 'SIN_CORREO', 'NO_APLICA']
    enviado_at: Optional[str]
    intentos: int
    error: Optional[str]
    respuestas: List[PostDteByIdEnviarResponseRespuesta]


class GetDteParams(TypedDict, total=False):
    """Query of GET /v1/dte."""
    page: int
    limit: int
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """only this tipo"""
    desde: str
    """from this tax date (YYYY-MM-DD, inclusive)"""
    hasta: str
    """up to this tax date (YYYY-MM-DD, inclusive)"""
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """only documents in this state"""
    folio: int
    """only this folio"""
    receptor_rut: str
    """only documents to this receptor (any writing of the RUT)"""
    aceptacion: Literal['SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO']
    """extension: only facturas whose receiver answered this in the SII's registry"""


class GetDteItemReceptor(TypedDict):
    rut: str
    razon_social: Optional[str]
    """null when the document was stored without a name (the column is nullable: a client must handle it)"""


class _GetDteItemRequired(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: GetDteItemReceptor
    monto_neto: int
    monto_exento: float
    monto_iva: int
    monto_total: float
    """pesos; an export's in its currency (up to 4 decimals), in lists too, its pesos in `monto_total_pesos`"""
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


class GetDteItem(_GetDteItemRequired, total=False):
    monto_iva_retenido: int
    """46: the IVA the buyer retains"""
    monto_iva_no_retenido: int
    """46: IVANoRet"""
    moneda: str
    """110–112: TpoMoneda"""
    tipo_cambio: float
    """110–112: pesos per unit"""
    monto_total_pesos: int
    """110–112: MntTotOtrMnda"""


class GetDteResumenParams(TypedDict, total=False):
    """Query of GET /v1/dte/resumen."""
    desde: str
    """first tax date of the period (inclusive)"""
    hasta: str
    """last tax date of the period (inclusive)"""


class GetDteResumenResponseTipo(TypedDict):
    tipo: int
    documentos: int
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int


class GetDteResumenResponseImpuestosAdicionale(TypedDict):
    codigo: int
    tasa: float
    base: int
    monto: int


class GetDteResumenResponse(TypedDict):
    desde: str
    hasta: str
    tipos: List[GetDteResumenResponseTipo]
    debito_fiscal: int
    total_neto_de_notas: int
    impuestos_adicionales: List[GetDteResumenResponseImpuestosAdicionale]
    rechazados: int
    sin_respuesta: int


class _GetDteByIdResponseReceptorRequired(TypedDict):
    rut: str
    razon_social: Optional[str]


class GetDteByIdResponseReceptor(_GetDteByIdResponseReceptorRequired, total=False):
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class GetDteByIdResponseImpuestosAdicionale(TypedDict):
    codigo: int
    tasa: float
    base: int
    monto: int


class _GetDteByIdResponseTrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class GetDteByIdResponseTraslado(_GetDteByIdResponseTrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class GetDteByIdResponseTransporteChofer(TypedDict):
    rut: str
    nombre: str


class GetDteByIdResponseTransporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: GetDteByIdResponseTransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _GetDteByIdResponseHistorialItemRequired(TypedDict):
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    at: str


class GetDteByIdResponseHistorialItem(_GetDteByIdResponseHistorialItemRequired, total=False):
    detalle: str


class GetDteByIdResponseIntercambioRespuesta(TypedDict):
    tipo: Literal['recepcion', 'resultado', 'recibo']
    codigo: int
    glosa: str
    at: str


class GetDteByIdResponseIntercambio(TypedDict):
    destinatarios: List[str]
    estado: Literal['PENDIENTE', 'ENVIADO', 'FALLIDO', 'SIN_DESTINATARIO', 'SIN_CORREO', 'NO_APLICA']
    enviado_at: Optional[str]
    intentos: int
    error: Optional[str]
    respuestas: List[GetDteByIdResponseIntercambioRespuesta]


class _GetDteByIdResponseRequired(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 43, 46, 52, 56, 61, 110, 111, 112]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    monto_neto: int
    monto_exento: float
    monto_iva: int
    monto_total: float
    """pesos; an export's in its currency (up to 4 decimals), in lists too, its pesos in `monto_total_pesos`"""
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str
    receptor: GetDteByIdResponseReceptor
    precios_brutos: bool
    items: List[Dict[str, Any]]
    referencias: List[Dict[str, Any]]
    historial: List[GetDteByIdResponseHistorialItem]
    intercambio: GetDteByIdResponseIntercambio


class GetDteByIdResponse(_GetDteByIdResponseRequired, total=False):
    monto_iva_retenido: int
    """46: the IVA the buyer retains"""
    monto_iva_no_retenido: int
    """46: IVANoRet"""
    moneda: str
    """110–112: TpoMoneda"""
    tipo_cambio: float
    """110–112: pesos per unit"""
    monto_total_pesos: int
    """110–112: MntTotOtrMnda"""
    forma_pago: Literal[1, 2, 3]
    descuento_global_porcentaje: float
    observaciones: str
    impuestos_adicionales: List[GetDteByIdResponseImpuestosAdicionale]
    traslado: GetDteByIdResponseTraslado
    transporte: GetDteByIdResponseTransporte


class GetDteByIdStatusParams(TypedDict, total=False):
    """Query of GET /v1/dte/{id}/status."""
    refresh: bool
    """ask the SII now instead of answering what was last known"""


class GetDteByIdStatusResponseSiiErrore(TypedDict):
    codigo: str
    descripcion: str
    ayuda: str


class GetDteByIdStatusResponseSii(TypedDict):
    estado_envio: Optional[str]
    glosa: Optional[str]
    aceptados: Optional[int]
    rechazados: Optional[int]
    reparos: Optional[int]
    errores: List[GetDteByIdStatusResponseSiiErrore]
    consultado_at: Optional[str]


class _GetDteByIdStatusResponseHistorialItemRequired(TypedDict):
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    at: str


class GetDteByIdStatusResponseHistorialItem(_GetDteByIdStatusResponseHistorialItemRequired, total=False):
    detalle: str


class GetDteByIdStatusResponse(TypedDict):
    id: str
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    sii: GetDteByIdStatusResponseSii
    historial: List[GetDteByIdStatusResponseHistorialItem]


class GetDteByIdAceptacionParams(TypedDict, total=False):
    """Query of GET /v1/dte/{id}/aceptacion."""
    refresh: bool
    """ask the SII's registry now"""


class GetDteByIdAceptacionResponseEvento(TypedDict):
    codigo: str
    descripcion: str
    rut_responsable: Optional[str]
    fecha: Optional[str]


class GetDteByIdAceptacionResponse(TypedDict):
    id: str
    tipo: int
    folio: int
    estado: Literal['NO_APLICA', 'SIN_CONSULTAR', 'SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO']
    eventos: List[GetDteByIdAceptacionResponseEvento]
    recibido_sii_at: Optional[str]
    plazo_hasta: Optional[str]
    consultado_at: Optional[str]
    proxima_consulta_at: Optional[str]


class GetDteByIdPdfParams(TypedDict, total=False):
    """Query of GET /v1/dte/{id}/pdf."""
    formato: Literal['carta', 'termica']
    """`carta` (default) or `termica` (80 mm thermal roll)"""
    cedible: bool
    """the transferable copy ("CEDIBLE") of a factura or guía"""


class GetDteByIdXmlParams(TypedDict, total=False):
    """Query of GET /v1/dte/{id}/xml."""
    envio: bool
    """the uploaded EnvioDTE/EnvioBOLETA envelope instead of the DTE alone"""


class GetEventsParams(TypedDict, total=False):
    """Query of GET /v1/events."""
    page: int
    limit: int
    event: Literal['dte.status_changed', 'dte.acceptance_changed', 'numeration.low', 'numeration.expiring', 'certificate.expiring', 'dte.delivered', 'dte.delivery_failed', 'dte.receiver_answered', 'received.created', 'received.deadline_near', 'received.decided']
    """only events of this kind"""


class GetEventsItemDeliverie(TypedDict):
    attempt: int
    at: Optional[str]
    status_code: Optional[int]
    ok: bool


class GetEventsItem(TypedDict):
    id: str
    event: str
    environment: Literal['test', 'live']
    business_id: str
    created_at: str
    data: Dict[str, Any]
    deliveries: List[GetEventsItemDeliverie]


class PostEventsByIdResendResponse(TypedDict):
    id: str
    attempt: int
    due_at: str


class _PostReceivedRequestRequired(TypedDict):
    xml: str


class PostReceivedRequest(_PostReceivedRequestRequired, total=False):
    reply_to: str


class PostReceivedResponseResultDataEmisor(TypedDict):
    rut: str
    razon_social: str
    giro: Optional[str]


class PostReceivedResponseResultDataEvento(TypedDict):
    codigo: str
    descripcion: str
    rut_responsable: Optional[str]
    fecha: Optional[str]
    origen: Literal['timbre', 'sii']


class _PostReceivedResponseResultDataVerificacionRequired(TypedDict):
    firma: str
    timbre: str
    caf: str
    receptor: str


class PostReceivedResponseResultDataVerificacion(_PostReceivedResponseResultDataVerificacionRequired, total=False):
    firma_variante: str
    emisor: str


class PostReceivedResponseResultData(TypedDict):
    id: str
    emisor: PostReceivedResponseResultDataEmisor
    tipo: int
    folio: int
    fecha: str
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    items: List[Any]
    referencias: List[Any]
    recibido_at: str
    recibido_sii_at: Optional[str]
    plazo_hasta: Optional[str]
    estado: Literal['SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO', 'NO_APLICA']
    eventos: List[PostReceivedResponseResultDataEvento]
    verificacion: PostReceivedResponseResultDataVerificacion
    superseded_by: Optional[str]
    environment: str
    created_at: str


class _PostReceivedResponseResultErrorRequired(TypedDict):
    code: str
    message: str


class PostReceivedResponseResultError(_PostReceivedResponseResultErrorRequired, total=False):
    details: Any


class _PostReceivedResponseResultRequired(TypedDict):
    index: int
    success: bool


class PostReceivedResponseResult(_PostReceivedResponseResultRequired, total=False):
    data: PostReceivedResponseResultData
    duplicate: Literal[True]
    error: PostReceivedResponseResultError


class PostReceivedResponse(TypedDict):
    results: List[PostReceivedResponseResult]


class GetReceivedParams(TypedDict, total=False):
    """Query of GET /v1/received."""
    page: int
    limit: int
    emisor_rut: str
    tipo: str
    estado: str
    desde: str
    hasta: str


class GetReceivedItemEmisor(TypedDict):
    rut: str
    razon_social: str
    giro: Optional[str]


class GetReceivedItemEvento(TypedDict):
    codigo: str
    descripcion: str
    rut_responsable: Optional[str]
    fecha: Optional[str]
    origen: Literal['timbre', 'sii']


class _GetReceivedItemVerificacionRequired(TypedDict):
    firma: str
    timbre: str
    caf: str
    receptor: str


class GetReceivedItemVerificacion(_GetReceivedItemVerificacionRequired, total=False):
    firma_variante: str
    emisor: str


class GetReceivedItem(TypedDict):
    id: str
    emisor: GetReceivedItemEmisor
    tipo: int
    folio: int
    fecha: str
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    items: List[Any]
    referencias: List[Any]
    recibido_at: str
    recibido_sii_at: Optional[str]
    plazo_hasta: Optional[str]
    estado: Literal['SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO', 'NO_APLICA']
    eventos: List[GetReceivedItemEvento]
    verificacion: GetReceivedItemVerificacion
    superseded_by: Optional[str]
    environment: str
    created_at: str


class GetReceivedInboxParams(TypedDict, total=False):
    """Query of GET /v1/received/inbox."""
    page: int
    limit: int


GetReceivedInboxItem = TypedDict("GetReceivedInboxItem", {"id": str, "source": str, "reason": str, "detail": str, "from": Optional[str], "subject": Optional[str], "filename": Optional[str], "created_at": str}, total=False)


class GetReceivedByIdResponseEmisor(TypedDict):
    rut: str
    razon_social: str
    giro: Optional[str]


class GetReceivedByIdResponseEvento(TypedDict):
    codigo: str
    descripcion: str
    rut_responsable: Optional[str]
    fecha: Optional[str]
    origen: Literal['timbre', 'sii']


class _GetReceivedByIdResponseVerificacionRequired(TypedDict):
    firma: str
    timbre: str
    caf: str
    receptor: str


class GetReceivedByIdResponseVerificacion(_GetReceivedByIdResponseVerificacionRequired, total=False):
    firma_variante: str
    emisor: str


class GetReceivedByIdResponse(TypedDict):
    id: str
    emisor: GetReceivedByIdResponseEmisor
    tipo: int
    folio: int
    fecha: str
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    items: List[Any]
    referencias: List[Any]
    recibido_at: str
    recibido_sii_at: Optional[str]
    plazo_hasta: Optional[str]
    estado: Literal['SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO', 'NO_APLICA']
    eventos: List[GetReceivedByIdResponseEvento]
    verificacion: GetReceivedByIdResponseVerificacion
    superseded_by: Optional[str]
    environment: str
    created_at: str


class GetReceivedByIdPdfParams(TypedDict, total=False):
    """Query of GET /v1/received/{id}/pdf."""
    formato: Literal['carta', 'termica']
    """`carta` (default) or `termica` (80 mm thermal roll)"""


class PostReceivedByIdAceptarRequest(TypedDict, total=False):
    recibo_mercaderias: bool
    recinto: str


class PostReceivedByIdAceptarResponseEmisor(TypedDict):
    rut: str
    razon_social: str
    giro: Optional[str]


class PostReceivedByIdAceptarResponseEvento(TypedDict):
    codigo: str
    descripcion: str
    rut_responsable: Optional[str]
    fecha: Optional[str]
    origen: Literal['timbre', 'sii']


class _PostReceivedByIdAceptarResponseVerificacionRequired(TypedDict):
    firma: str
    timbre: str
    caf: str
    receptor: str


class PostReceivedByIdAceptarResponseVerificacion(_PostReceivedByIdAceptarResponseVerificacionRequired, total=False):
    firma_variante: str
    emisor: str


class PostReceivedByIdAceptarResponse(TypedDict):
    id: str
    emisor: PostReceivedByIdAceptarResponseEmisor
    tipo: int
    folio: int
    fecha: str
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    items: List[Any]
    referencias: List[Any]
    recibido_at: str
    recibido_sii_at: Optional[str]
    plazo_hasta: Optional[str]
    estado: Literal['SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO', 'NO_APLICA']
    eventos: List[PostReceivedByIdAceptarResponseEvento]
    verificacion: PostReceivedByIdAceptarResponseVerificacion
    superseded_by: Optional[str]
    environment: str
    created_at: str


class PostReceivedByIdReclamarRequest(TypedDict):
    accion: Literal['RCD', 'RFP', 'RFT']
    motivo: str


class PostReceivedByIdReclamarResponseEmisor(TypedDict):
    rut: str
    razon_social: str
    giro: Optional[str]


class PostReceivedByIdReclamarResponseEvento(TypedDict):
    codigo: str
    descripcion: str
    rut_responsable: Optional[str]
    fecha: Optional[str]
    origen: Literal['timbre', 'sii']


class _PostReceivedByIdReclamarResponseVerificacionRequired(TypedDict):
    firma: str
    timbre: str
    caf: str
    receptor: str


class PostReceivedByIdReclamarResponseVerificacion(_PostReceivedByIdReclamarResponseVerificacionRequired, total=False):
    firma_variante: str
    emisor: str


class PostReceivedByIdReclamarResponse(TypedDict):
    id: str
    emisor: PostReceivedByIdReclamarResponseEmisor
    tipo: int
    folio: int
    fecha: str
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    items: List[Any]
    referencias: List[Any]
    recibido_at: str
    recibido_sii_at: Optional[str]
    plazo_hasta: Optional[str]
    estado: Literal['SIN_RESPUESTA', 'ACEPTADO', 'RECLAMADO', 'ACEPTADO_TACITO', 'NO_APLICA']
    eventos: List[PostReceivedByIdReclamarResponseEvento]
    verificacion: PostReceivedByIdReclamarResponseVerificacion
    superseded_by: Optional[str]
    environment: str
    created_at: str


class GetIssuersByRutResponseResolucion(TypedDict):
    numero: int
    fecha: str


class GetIssuersByRutResponse(TypedDict):
    rut: str
    razon_social: str
    resolucion: Optional[GetIssuersByRutResponseResolucion]
    correo_intercambio: Optional[str]


# Short names used by the resources.
AnyEmitRequest = PostDteEmitRequest
EmitRequest = PostDteEmitRequest1
PurchaseEmitRequest = PostDteEmitRequest2
LiquidationEmitRequest = PostDteEmitRequest3
ExportEmitRequest = PostDteEmitRequest4
Dte = PostDteEmitResponse
DteDetail = GetDteByIdResponse
DteStatus = GetDteByIdStatusResponse
DteListParams = GetDteParams
Business = GetBusinessesByIdResponse
Numeration = GetNumerationsByIdResponse
ApiKey = GetTokensItem
Event = GetEventsItem
