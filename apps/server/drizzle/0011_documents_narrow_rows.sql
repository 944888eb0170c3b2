-- A document's row is rewritten at each change of state (PENDIENTE → ENVIADO → final) and by the poller's lease.
-- Its payload (signed XML, TED, request, computed: about 1.7 KB inline after compression besides the XML) was
-- copied into every new row version and its WAL record. With a tuple target of 128 bytes the toaster keeps the
-- payload out of line, where an UPDATE that does not change it only copies the pointers: a row version is about
-- 0.4 KB instead of 2.2 KB (bench/RESULTS.md §6, 2026-11-27, second entry). The small columns that are read by lists or change
-- with the state stay inline (STORAGE MAIN): only the payload goes out.
ALTER TABLE "documents" SET (toast_tuple_target = 128);--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "id" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "business_id" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "environment" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "numeration_id" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "fecha" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "receptor_rut" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "receptor_razon_social" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "estado" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "track_id" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "envelope_id" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "sii" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "annuls_document_id" SET STORAGE MAIN;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "acceptance" SET STORAGE MAIN;
