/** The dashboard's pages (paths are relative to /dashboard). */
import { loginPage, registerPage } from "./pages/auth.js";
import { editBusinessPage, newBusinessPage } from "./pages/business-edit.js";
import { businessesPage } from "./pages/businesses.js";
import { documentPage } from "./pages/document-detail.js";
import { importDocumentsPage } from "./pages/document-import.js";
import { newDocumentPage } from "./pages/document-new.js";
import { documentsPage } from "./pages/documents.js";
import { keysPage } from "./pages/keys.js";
import { numerationsPage } from "./pages/numerations.js";
import { receivedPage } from "./pages/received.js";
import { receivedDetailPage } from "./pages/received-detail.js";
import { receivedImportPage } from "./pages/received-import.js";
import { receivedInboxPage } from "./pages/received-inbox.js";
import { webhooksPage } from "./pages/webhooks.js";
import { navigate, type Route } from "./router.js";
import { state } from "./state.js";

export const routes: Route[] = [
  { path: "/ingresar", public: true, render: loginPage },
  { path: "/registro", public: true, render: registerPage },
  { path: "/", render: () => navigate(state.business() ? "/documentos" : "/empresas", true) },
  { path: "/empresas", render: businessesPage },
  { path: "/empresas/nueva", render: newBusinessPage },
  { path: "/empresas/:id", render: editBusinessPage },
  { path: "/folios", render: numerationsPage },
  { path: "/claves", render: keysPage },
  { path: "/webhooks", render: webhooksPage },
  { path: "/documentos", render: documentsPage },
  { path: "/documentos/nuevo", render: newDocumentPage },
  { path: "/documentos/importar", render: importDocumentsPage },
  { path: "/documentos/:id", render: documentPage },
  { path: "/recibidos", render: receivedPage },
  { path: "/recibidos/importar", render: receivedImportPage },
  { path: "/recibidos/bandeja", render: receivedInboxPage },
  { path: "/recibidos/:id", render: receivedDetailPage },
];
