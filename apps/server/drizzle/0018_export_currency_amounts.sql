ALTER TABLE "documents" ADD COLUMN "moneda" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "tipo_cambio" numeric(10, 4);--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "monto_total_moneda" numeric(22, 4);