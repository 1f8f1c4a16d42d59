ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "total_net_grosze" bigint;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "total_vat_grosze" bigint;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "buyer_name" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "test_event_id" text;--> statement-breakpoint
CREATE INDEX "documents_issue_date_idx" ON "documents" USING btree ("account_id","mode","issue_date","seq");--> statement-breakpoint
CREATE INDEX "documents_number_idx" ON "documents" USING btree ("account_id","mode",(split_part(number, '/', 2) || split_part(number, '/', 3) || split_part(number, '/', 1) || lpad(split_part(number, '/', 4), 10, '0')),"seq");--> statement-breakpoint
CREATE INDEX "documents_haystack_trgm_idx" ON "documents" USING gin (((coalesce(order_external_id, '') || E'\n' || coalesce(number, '') || E'\n' || coalesce(ksef_number, '') || E'\n' || coalesce(buyer_name, input->'buyer'->>'name', '') || E'\n' || coalesce(buyer_nip, input->'buyer'->>'nip', ''))) gin_trgm_ops) WITH (gin_pending_list_limit=256);