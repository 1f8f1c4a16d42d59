ALTER TABLE "documents" ADD COLUMN "mail_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "mail_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "pdf_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "pdf_retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "documents_pdf_due_idx" ON "documents" USING btree ("account_id","mode","seq") WHERE pdf_file_id is null and status in ('accepted', 'queued', 'sending');--> statement-breakpoint
CREATE INDEX "documents_mail_due_idx" ON "documents" USING btree ("account_id","mode","mail_retry_at") WHERE mail_status = 'pending';