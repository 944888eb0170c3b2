ALTER TABLE "numerations" ALTER COLUMN "desde" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "numerations" ALTER COLUMN "hasta" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "numerations" ALTER COLUMN "siguiente" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "unused_folios" ALTER COLUMN "folio" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "folio" SET DATA TYPE bigint;