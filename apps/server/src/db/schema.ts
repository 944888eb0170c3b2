/** The whole drizzle schema, one file per aggregate (numerations, documents and events join here later). */
export * from "./users.js";
export * from "./refresh-tokens.js";
export * from "./login-attempts.js";
export * from "./businesses.js";
export * from "./api-keys.js";
export * from "./rate-limits.js";
export * from "./idempotency-keys.js";
export * from "./numerations.js";
export * from "./documents.js";
export * from "./events.js";
export * from "./settings.js";
export * from "./received.js";
export * from "./answers.js";
