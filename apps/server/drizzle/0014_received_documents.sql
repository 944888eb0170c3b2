-- Intercambio (API.md §11–§12): received documents, the inbox of messages that could not be imported, the
-- per-business answer numbers, the outbox of mails, and each business's intercambio address token.
CREATE TABLE "exchange_outbox" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text,
	"recipients" jsonb NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"attachments" jsonb NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_sequences" (
	"business_id" text NOT NULL,
	"name" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "exchange_sequences_business_id_name_pk" PRIMARY KEY("business_id","name")
);
--> statement-breakpoint
CREATE TABLE "received_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"emisor_rut" text NOT NULL,
	"emisor_razon_social" text NOT NULL,
	"emisor_giro" text,
	"tipo" integer NOT NULL,
	"folio" bigint NOT NULL,
	"fecha" text NOT NULL,
	"monto_neto" bigint NOT NULL,
	"monto_exento" bigint NOT NULL,
	"monto_iva" bigint NOT NULL,
	"monto_total" bigint NOT NULL,
	"items" jsonb NOT NULL,
	"referencias" jsonb NOT NULL,
	"xml" "bytea" NOT NULL,
	"verified" boolean NOT NULL,
	"verificacion" jsonb NOT NULL,
	"superseded_by" text,
	"estado" text NOT NULL,
	"eventos" jsonb NOT NULL,
	"recibido_at" timestamp with time zone NOT NULL,
	"recibido_sii_at" timestamp with time zone,
	"plazo_hasta" timestamp with time zone,
	"cod_envio" integer NOT NULL,
	"reply_to" text,
	"registry_check_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "received_inbox" (
	"id" text PRIMARY KEY NOT NULL,
	"business_id" text NOT NULL,
	"environment" text NOT NULL,
	"source" text NOT NULL,
	"reason" text NOT NULL,
	"detail" text NOT NULL,
	"sender" text,
	"subject" text,
	"filename" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "intercambio_token" text;--> statement-breakpoint
ALTER TABLE "exchange_outbox" ADD CONSTRAINT "exchange_outbox_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_sequences" ADD CONSTRAINT "exchange_sequences_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_documents" ADD CONSTRAINT "received_documents_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_inbox" ADD CONSTRAINT "received_inbox_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_outbox_due_idx" ON "exchange_outbox" USING btree ("due_at") WHERE "exchange_outbox"."due_at" is not null;--> statement-breakpoint
CREATE INDEX "exchange_outbox_subject_idx" ON "exchange_outbox" USING btree ("subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "received_documents_verified_key" ON "received_documents" USING btree ("business_id","environment","emisor_rut","tipo","folio") WHERE "received_documents"."verified";--> statement-breakpoint
CREATE INDEX "received_documents_list_idx" ON "received_documents" USING btree ("business_id","environment","created_at");--> statement-breakpoint
CREATE INDEX "received_documents_registry_idx" ON "received_documents" USING btree ("registry_check_at") WHERE "received_documents"."registry_check_at" is not null;--> statement-breakpoint
CREATE INDEX "received_inbox_business_idx" ON "received_inbox" USING btree ("business_id","environment","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "businesses_intercambio_token_idx" ON "businesses" USING btree ("intercambio_token");--> statement-breakpoint
-- Existing businesses get their intercambio address token (128-bit hex from two random UUIDs' 244 random bits).
UPDATE "businesses" SET "intercambio_token" = md5(gen_random_uuid()::text || gen_random_uuid()::text) WHERE "intercambio_token" IS NULL;
