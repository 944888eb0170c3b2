ALTER TABLE "received_documents" ADD COLUMN "deadline_warned_at" timestamp with time zone;--> statement-breakpoint
-- Decided documents are no longer asked about (the registry follow-up worker takes SIN_RESPUESTA only).
UPDATE "received_documents" SET "registry_check_at" = NULL WHERE "estado" <> 'SIN_RESPUESTA';
