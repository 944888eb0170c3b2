/** The real emission functions (dispatch/*) behind the document workers. */
import { reconcileDocument } from "../dispatch/reconcile-document.js";
import { refreshDocumentStatuses } from "../dispatch/refresh-document-status.js";
import { nextCheckAt } from "../dispatch/sii-session.js";
import { submitDocuments } from "../dispatch/submit-documents.js";
import type { DocumentEngine } from "./document-engine.js";

export const defaultDocumentEngine: DocumentEngine = {
  reconcileDocument: (deps, id) => reconcileDocument(deps, id),
  submitDocuments,
  refreshDocumentStatuses: (deps, ids) => refreshDocumentStatuses(deps, ids),
  nextCheckAt,
};
