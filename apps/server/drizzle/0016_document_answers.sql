CREATE TABLE "document_answers" (
	"document_id" text NOT NULL,
	"fingerprint" text NOT NULL,
	"business_id" text NOT NULL,
	"kind" text NOT NULL,
	"codigo" integer NOT NULL,
	"glosa" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "document_answers_document_id_fingerprint_pk" PRIMARY KEY("document_id","fingerprint")
);
--> statement-breakpoint
CREATE TABLE "document_sii_mails" (
	"document_id" text NOT NULL,
	"track_id" text NOT NULL,
	"business_id" text NOT NULL,
	"errores" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_sii_mails_document_id_track_id_pk" PRIMARY KEY("document_id","track_id")
);
--> statement-breakpoint
ALTER TABLE "document_answers" ADD CONSTRAINT "document_answers_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_answers" ADD CONSTRAINT "document_answers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_sii_mails" ADD CONSTRAINT "document_sii_mails_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_sii_mails" ADD CONSTRAINT "document_sii_mails_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_answers_business_idx" ON "document_answers" USING btree ("business_id");--> statement-breakpoint
CREATE INDEX "document_sii_mails_business_idx" ON "document_sii_mails" USING btree ("business_id");