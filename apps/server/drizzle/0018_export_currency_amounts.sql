-- An export's (110–112) currency, exchange rate and total in that currency: lists show them and the SII's status
-- query compares the document's own total (its pesos stay in monto_total). Small columns stay inline, as 0011 wants.
ALTER TABLE "documents" ADD COLUMN "moneda" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "tipo_cambio" numeric(10, 4);--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "monto_total_moneda" numeric(22, 4);--> statement-breakpoint
ALTER TABLE "documents" ALTER COLUMN "moneda" SET STORAGE MAIN;
