/** Every command, for oclif's "explicit" discovery (the bundle has no commands directory to scan). */
import BusinessesCreate from "./commands/businesses/create.js";
import BusinessesList from "./commands/businesses/list.js";
import BusinessesShow from "./commands/businesses/show.js";
import BusinessesUpdate from "./commands/businesses/update.js";
import BusinessesUse from "./commands/businesses/use.js";
import CertificatesUpload from "./commands/certificates/upload.js";
import DteAnular from "./commands/dte/anular.js";
import DteBatch from "./commands/dte/batch.js";
import DteEmit from "./commands/dte/emit.js";
import DteList from "./commands/dte/list.js";
import DtePdf from "./commands/dte/pdf.js";
import DteResumen from "./commands/dte/resumen.js";
import DteSend from "./commands/dte/send.js";
import DteShow from "./commands/dte/show.js";
import DteAceptacion from "./commands/dte/aceptacion.js";
import DteStatus from "./commands/dte/status.js";
import DteXml from "./commands/dte/xml.js";
import EventsList from "./commands/events/list.js";
import EventsResend from "./commands/events/resend.js";
import Login from "./commands/login.js";
import Logout from "./commands/logout.js";
import NumerationsList from "./commands/numerations/list.js";
import NumerationsSandbox from "./commands/numerations/sandbox.js";
import NumerationsUpload from "./commands/numerations/upload.js";
import ReceivedAccept from "./commands/received/accept.js";
import ReceivedClaim from "./commands/received/claim.js";
import ReceivedImport from "./commands/received/import.js";
import ReceivedInbox from "./commands/received/inbox.js";
import ReceivedList from "./commands/received/list.js";
import ReceivedPdf from "./commands/received/pdf.js";
import ReceivedShow from "./commands/received/show.js";
import ReceivedXml from "./commands/received/xml.js";
import RutValidate from "./commands/rut/validate.js";
import TokensCreate from "./commands/tokens/create.js";
import TokensList from "./commands/tokens/list.js";
import TokensRevoke from "./commands/tokens/revoke.js";
import WebhooksListen from "./commands/webhooks/listen.js";
import WebhooksRotateSecret from "./commands/webhooks/rotate-secret.js";
import Whoami from "./commands/whoami.js";

export const COMMANDS = {
  login: Login,
  logout: Logout,
  whoami: Whoami,
  "businesses:list": BusinessesList,
  "businesses:create": BusinessesCreate,
  "businesses:show": BusinessesShow,
  "businesses:update": BusinessesUpdate,
  "businesses:use": BusinessesUse,
  "certificates:upload": CertificatesUpload,
  "numerations:list": NumerationsList,
  "numerations:sandbox": NumerationsSandbox,
  "numerations:upload": NumerationsUpload,
  "dte:emit": DteEmit,
  "dte:batch": DteBatch,
  "dte:list": DteList,
  "dte:show": DteShow,
  "dte:status": DteStatus,
  "dte:aceptacion": DteAceptacion,
  "dte:pdf": DtePdf,
  "dte:xml": DteXml,
  "dte:anular": DteAnular,
  "dte:resumen": DteResumen,
  "dte:send": DteSend,
  "received:list": ReceivedList,
  "received:show": ReceivedShow,
  "received:import": ReceivedImport,
  "received:accept": ReceivedAccept,
  "received:claim": ReceivedClaim,
  "received:pdf": ReceivedPdf,
  "received:xml": ReceivedXml,
  "received:inbox": ReceivedInbox,
  "tokens:list": TokensList,
  "tokens:create": TokensCreate,
  "tokens:revoke": TokensRevoke,
  "events:list": EventsList,
  "events:resend": EventsResend,
  "webhooks:listen": WebhooksListen,
  "webhooks:rotate-secret": WebhooksRotateSecret,
  "rut:validate": RutValidate,
};
