/** Wire-level helpers shared by the client and the sandbox (SOAP, multipart, SII answers). */
export * from "./bytes.js";
export * from "./endpoints.js";
export * from "./multipart.js";
export * from "./parse-multipart.js";
export * from "./soap.js";
export * from "./xml-text.js";
export * from "./chile-time.js";
export * from "./receiver-registry.js";
