-- API.md §12 door 3: a business's own IMAP mailbox (sealed URL, what the business object shows of it, the poll's
-- UIDVALIDITY/UID progress and schedule).
ALTER TABLE "businesses" ADD COLUMN "imap_url_enc" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_host" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_user" text;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_uid_validity" bigint;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_last_uid" bigint;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "imap_error" text;--> statement-breakpoint
CREATE INDEX "businesses_imap_due_idx" ON "businesses" USING btree ("imap_next_check_at") WHERE "businesses"."imap_url_enc" is not null and "businesses"."deleted_at" is null;