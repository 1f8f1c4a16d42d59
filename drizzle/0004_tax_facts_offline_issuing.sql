ALTER TABLE "account_modes" ADD COLUMN "cash_accounting" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_certificate" text;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_certificate_serial" text;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_certificate_valid_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_certificate_valid_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_certificate_source" text;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_enrolment" text;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_enrolment_error" text;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_policy" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "offline_delay_seconds" integer DEFAULT 300 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "warnings" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "offline_mode" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "offline_issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "offline_deadline" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "offline_deadline_missed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "offline_kod_ii_url" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "corrected_invoice_hash" text;--> statement-breakpoint
CREATE INDEX "documents_offline_deadline_idx" ON "documents" USING btree ("offline_deadline") WHERE offline_mode and ksef_number is null;