CREATE INDEX "documents_newest_idx" ON "documents" USING btree ("business_id","environment","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_estado_idx" ON "documents" USING btree ("business_id","environment","estado","created_at");--> statement-breakpoint
CREATE INDEX "documents_receptor_idx" ON "documents" USING btree ("business_id","environment","receptor_rut");--> statement-breakpoint
CREATE INDEX "documents_list_folio_idx" ON "documents" USING btree ("business_id","environment","folio");