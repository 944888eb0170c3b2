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
    permissions: List[Literal['dte:read', 'dte:write', 'businesses:read', 'businesses:write', 'numerations:read', 'numerations:write', 'tokens:read', 'tokens:write', '*']]


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
    created_at: str
    updated_at: str


class GetBusinessesByIdResponse(_GetBusinessesByIdResponseRequired, total=False):
    webhook_secret: str


class PutBusinessesByIdRequestResolucion(TypedDict):
    numero: int
    fecha: str


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
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
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
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
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


class _PostDteEmitRequestReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDteEmitRequestReceptor(_PostDteEmitRequestReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDteEmitRequestItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDteEmitRequestItem(_PostDteEmitRequestItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    impuesto_adicional: int
    """extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only"""


class _PostDteEmitRequestReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequestReferencia(_PostDteEmitRequestReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequestReferencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDteEmitRequestReferencia2(_PostDteEmitRequestReferencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDteEmitRequestTrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class PostDteEmitRequestTraslado(_PostDteEmitRequestTrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class PostDteEmitRequestTransporteChofer(TypedDict):
    rut: str
    nombre: str


class PostDteEmitRequestTransporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: PostDteEmitRequestTransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _PostDteEmitRequestRequired(TypedDict):
    tipo: Union[Literal[33], Literal[34], Literal[39], Literal[41], Literal[52], Literal[56], Literal[61]]
    receptor: PostDteEmitRequestReceptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDteEmitRequestItem]


class PostDteEmitRequest(_PostDteEmitRequestRequired, total=False):
    fecha: str
    precios_brutos: bool
    """Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52."""
    referencia: PostDteEmitRequestReferencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDteEmitRequestReferencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str
    traslado: PostDteEmitRequestTraslado
    transporte: PostDteEmitRequestTransporte


class PostDteEmitResponseReceptor(TypedDict):
    rut: str
    razon_social: Optional[str]
    """null when the document was stored without a name (the column is nullable: a client must handle it)"""


class PostDteEmitResponse(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: PostDteEmitResponseReceptor
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


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


class PostDteBatchResponseResultData(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: PostDteBatchResponseResultDataReceptor
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


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


class _PostDtePreviewRequestReceptorRequired(TypedDict):
    rut: str
    razon_social: str


class PostDtePreviewRequestReceptor(_PostDtePreviewRequestReceptorRequired, total=False):
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    giro: str
    direccion: str
    comuna: str
    ciudad: str
    email: str
    contacto: str


class _PostDtePreviewRequestItemRequired(TypedDict):
    nombre: str
    cantidad: float
    precio: float


class PostDtePreviewRequestItem(_PostDtePreviewRequestItemRequired, total=False):
    unidad: str
    descuento_porcentaje: float
    descripcion: str
    codigo: str
    exento: bool
    impuesto_adicional: int
    """extension: additional tax code of the line (CodImpAdic), e.g. 27 soft drinks 10 %, 271 sugary drinks 18 %, 24 spirits 31.5 %, 25 wine / 26 beer 20.5 %, 18 meat 5 %, 19 flour 12 %, 23 art. 37 15 %; facturas 33 and their notes only"""


class _PostDtePreviewRequestReferenciaRequired(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequestReferencia(_PostDtePreviewRequestReferenciaRequired, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequestReferencia2Required(TypedDict):
    tipo_doc: Union[int, str]
    folio: Union[int, str]
    fecha: str


class PostDtePreviewRequestReferencia2(_PostDtePreviewRequestReferencia2Required, total=False):
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    razon: str
    codigo: Union[Literal[1], Literal[2], Literal[3]]
    """CodRef: 1 anula, 2 corrige texto, 3 corrige montos. Against an own document it defaults to 1 when the note's total equals the document's, else 3; against a document Timbre did not issue it is required"""


class _PostDtePreviewRequestTrasladoRequired(TypedDict):
    tipo: int
    """IndTraslado: 1 operación constituye venta, 2 ventas por efectuar, 3 consignaciones, 4 entrega gratuita, 5 traslados internos, 6 otros traslados no venta, 7 guía de devolución, 8 traslado para exportación, 9 venta para exportación"""


class PostDtePreviewRequestTraslado(_PostDtePreviewRequestTrasladoRequired, total=False):
    despacho: int
    """TipoDespacho: 1 por cuenta del receptor, 2 del emisor a instalaciones del cliente, 3 del emisor a otras instalaciones"""


class PostDtePreviewRequestTransporteChofer(TypedDict):
    rut: str
    nombre: str


class PostDtePreviewRequestTransporte(TypedDict, total=False):
    patente: str
    rut_transportista: str
    chofer: PostDtePreviewRequestTransporteChofer
    direccion_destino: str
    comuna_destino: str
    ciudad_destino: str


class _PostDtePreviewRequestRequired(TypedDict):
    tipo: Union[Literal[33], Literal[34], Literal[39], Literal[41], Literal[52], Literal[56], Literal[61]]
    receptor: PostDtePreviewRequestReceptor
    """Who receives the document. `rut` and `razon_social` always; `giro`, `direccion` and `comuna` too on facturas (33, 34) and notes (56, 61) — 422 reason `required` otherwise; optional on boletas (39, 41), whose `rut` may be 66666666-6 (anonymous consumer). API.md §6.3"""
    items: List[PostDtePreviewRequestItem]


class PostDtePreviewRequest(_PostDtePreviewRequestRequired, total=False):
    fecha: str
    precios_brutos: bool
    """Whether the items' `precio` include IVA (gross). Default false: prices are net and IVA is added. Timbre's CLI quick boleta, dashboard form and emission sheet default to gross prices on boletas (39/41) and then send `precios_brutos: true` explicitly. Ignored (applied as false) on the exempt tipos 34 and 41; not allowed on a 52."""
    referencia: PostDtePreviewRequestReferencia
    """The document a note (56, 61) corrects or annuls: its `tipo_doc`, `folio` and tax date `fecha`, the `razon`, and `codigo`. Required on 56 and 61 (`referencia` or `referencias[]`). API.md §6.3"""
    referencias: List[PostDtePreviewRequestReferencia2]
    forma_pago: Union[Literal[1], Literal[2], Literal[3]]
    descuento_global_porcentaje: float
    observaciones: str
    traslado: PostDtePreviewRequestTraslado
    transporte: PostDtePreviewRequestTransporte


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


class PostDteByIdAnularResponse(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: PostDteByIdAnularResponseReceptor
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


class GetDteParams(TypedDict, total=False):
    """Query of GET /v1/dte."""
    page: int
    limit: int
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
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


class GetDteItem(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    receptor: GetDteItemReceptor
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
    estado: Literal['PENDIENTE', 'ENVIADO', 'ACEPTADO', 'ACEPTADO_CON_REPAROS', 'RECHAZADO']
    """PENDIENTE (signed, not yet uploaded) → ENVIADO (uploaded, `track_id`) → ACEPTADO | ACEPTADO_CON_REPAROS | RECHAZADO (API.md §6.3)"""
    track_id: Optional[str]
    """the SII's upload id; null while PENDIENTE"""
    pdf_url: str
    xml_url: str
    environment: Literal['test', 'live']
    created_at: str


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


class _GetDteByIdResponseRequired(TypedDict):
    id: str
    tipo: Literal[33, 34, 39, 41, 52, 56, 61]
    """the document's tipo (API.md §6.3, §13)"""
    folio: int
    fecha_emision: str
    fecha: str
    monto_neto: int
    monto_exento: int
    monto_iva: int
    monto_total: int
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


class GetDteByIdResponse(_GetDteByIdResponseRequired, total=False):
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
    event: Literal['dte.status_changed', 'dte.acceptance_changed', 'numeration.low', 'numeration.expiring', 'certificate.expiring']
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


# Short names used by the resources.
EmitRequest = PostDteEmitRequest
Dte = PostDteEmitResponse
DteDetail = GetDteByIdResponse
DteStatus = GetDteByIdStatusResponse
DteListParams = GetDteParams
Business = GetBusinessesByIdResponse
Numeration = GetNumerationsByIdResponse
ApiKey = GetTokensItem
Event = GetEventsItem
