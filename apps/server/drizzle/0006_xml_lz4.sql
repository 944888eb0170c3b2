-- Signed XML (documents.xml, envelopes.xml) is compressed with lz4 where the server supports it: pglz took about
-- 1 ms of PostgreSQL CPU per 93 KB envelope and lz4 0.2 ms for the same size (bench/RESULTS.md §6). Only new
-- values are affected. PGlite is built without lz4 and keeps pglz: the condition below reads the methods this
-- server offers (an unsupported method would be an error).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
    ALTER TABLE "documents" ALTER COLUMN "xml" SET COMPRESSION lz4;
    ALTER TABLE "envelopes" ALTER COLUMN "xml" SET COMPRESSION lz4;
  END IF;
END
$$;
