ALTER TABLE "store_documents" ADD COLUMN "gave_up_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "store_documents" ADD COLUMN "gave_up_reason" text;--> statement-breakpoint
CREATE INDEX "store_documents_gave_up_idx" ON "store_documents" USING btree ("store_id","gave_up_at") WHERE gave_up_at is not null;