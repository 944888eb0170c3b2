-- The server process that runs an idempotent request's first attempt (src/liveness.ts): a retry after that process
-- died is served at once instead of waiting for the request to count as abandoned (5 min).
ALTER TABLE "idempotency_keys" ADD COLUMN "owner" text;
