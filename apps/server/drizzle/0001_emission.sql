CREATE TABLE "numerations" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"tipo" integer NOT NULL,
	"desde" integer NOT NULL,
	"hasta" integer NOT NULL,
	"siguiente" integer NOT NULL,
	"fecha_autorizacion" text NOT NULL,
	"vence_el" text,
	"idk" integer NOT NULL,
	"caf_xml" text NOT NULL,
	"caf_file_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"exhausted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "unused_folios" (
	"numeration_id" text NOT NULL,
	"folio" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_history" (
	"id" text PRIMARY KEY NOT NULL,
	"document_id" text NOT NULL,
	"estado" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"detalle" text
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"numeration_id" text NOT NULL,
	"tipo" integer NOT NULL,
	"folio" integer NOT NULL,
	"fecha" text NOT NULL,
	"fecha_emision" timestamp with time zone NOT NULL,
	"receptor_rut" text NOT NULL,
	"receptor_razon_social" text,
	"monto_neto" bigint NOT NULL,
	"monto_exento" bigint NOT NULL,
	"monto_iva" bigint NOT NULL,
	"monto_total" bigint NOT NULL,
	"estado" text NOT NULL,
	"track_id" text,
	"envelope_id" text,
	"request" jsonb NOT NULL,
	"computed" jsonb NOT NULL,
	"xml" "bytea" NOT NULL,
	"ted" text NOT NULL,
	"sii" jsonb,
	"next_check_at" timestamp with time zone,
	"check_attempts" integer DEFAULT 0 NOT NULL,
	"annuls_document_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "envelopes" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"kind" text NOT NULL,
	"xml" "bytea" NOT NULL,
	"track_id" text,
	"status" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"event" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"state" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"at" timestamp with time zone,
	"status_code" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "numerations" ADD CONSTRAINT "numerations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unused_folios" ADD CONSTRAINT "unused_folios_numeration_id_numerations_id_fk" FOREIGN KEY ("numeration_id") REFERENCES "public"."numerations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_history" ADD CONSTRAINT "document_history_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_numeration_id_numerations_id_fk" FOREIGN KEY ("numeration_id") REFERENCES "public"."numerations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "numerations_pick_idx" ON "numerations" USING btree ("business_id","environment","tipo","fecha_autorizacion","desde");--> statement-breakpoint
CREATE UNIQUE INDEX "numerations_range_idx" ON "numerations" USING btree ("business_id","environment","tipo","desde");--> statement-breakpoint
CREATE UNIQUE INDEX "unused_folios_idx" ON "unused_folios" USING btree ("numeration_id","folio");--> statement-breakpoint
CREATE INDEX "document_history_doc_idx" ON "document_history" USING btree ("document_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_folio_idx" ON "documents" USING btree ("business_id","environment","tipo","folio");--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("business_id","environment","fecha","id");--> statement-breakpoint
CREATE INDEX "documents_work_idx" ON "documents" USING btree ("estado","next_check_at");--> statement-breakpoint
CREATE INDEX "envelopes_business_idx" ON "envelopes" USING btree ("business_id","environment");--> statement-breakpoint
CREATE INDEX "events_business_idx" ON "events" USING btree ("business_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("state","due_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");