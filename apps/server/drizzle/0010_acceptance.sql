-- The receiver's acceptance or claim of a factura (SII registry of Ley 19.983), asked by the acceptance worker.
ALTER TABLE "documents" ADD COLUMN "acceptance" jsonb;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "acceptance_check_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "documents_acceptance_idx" ON "documents" USING btree ("acceptance_check_at") WHERE "documents"."acceptance_check_at" is not null;--> statement-breakpoint
CREATE INDEX "documents_acceptance_estado_idx" ON "documents" USING btree ("business_id","environment",("acceptance"->>'estado'),"created_at") WHERE "documents"."acceptance" is not null;--> statement-breakpoint
-- Facturas accepted in the last 9 days may still be accepted or claimed: ask about them once now.
UPDATE "documents" SET "acceptance_check_at" = now()
  WHERE "tipo" IN (33, 34) AND "estado" IN ('ACEPTADO', 'ACEPTADO_CON_REPAROS') AND "updated_at" > now() - interval '9 days';
