CREATE TYPE "public"."document_kind" AS ENUM('invoice', 'correction');--> statement-breakpoint
CREATE TYPE "public"."document_status" AS ENUM('pending', 'queued', 'sending', 'accepted', 'rejected', 'skipped', 'waiting_for_plan_limit', 'error');--> statement-breakpoint
CREATE TYPE "public"."ksef_environment" AS ENUM('test', 'demo', 'prod');--> statement-breakpoint
CREATE TYPE "public"."mode" AS ENUM('test', 'live');--> statement-breakpoint
CREATE TABLE "account_modes" (
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"seller_nip" text,
	"seller_name" text,
	"seller_address1" text,
	"seller_address2" text,
	"ksef_environment" "ksef_environment" NOT NULL,
	"ksef_credential" text,
	"ksef_credential_kind" text,
	"ksef_credential_version" integer DEFAULT 0 NOT NULL,
	"ksef_connected" boolean DEFAULT false NOT NULL,
	"ksef_check_error" text DEFAULT 'not connected',
	"ksef_checked_at" timestamp with time zone,
	"plan_name" text DEFAULT 'Unlimited' NOT NULL,
	"monthly_limit" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_modes_account_id_mode_pk" PRIMARY KEY("account_id","mode")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text,
	"platform" text DEFAULT 'api' NOT NULL,
	"live_enabled" boolean DEFAULT false NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"user_id" text NOT NULL,
	"account_id" text NOT NULL,
	"role" text DEFAULT 'owner' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_user_id_account_id_pk" PRIMARY KEY("user_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "document_transitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" text NOT NULL,
	"from_status" "document_status",
	"to_status" "document_status" NOT NULL,
	"error" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"kind" "document_kind" NOT NULL,
	"status" "document_status" DEFAULT 'pending' NOT NULL,
	"invoice_id" text,
	"order_external_id" text NOT NULL,
	"refund_external_id" text,
	"order_number" text,
	"number" text,
	"ksef_number" text,
	"ksef_environment" "ksef_environment" NOT NULL,
	"issue_date" text,
	"currency" text,
	"total_gross_grosze" bigint,
	"buyer_nip" text,
	"buyer_email" text,
	"input" jsonb NOT NULL,
	"exchange_rate" jsonb,
	"last_error" jsonb,
	"fa3_xml" text,
	"xml_sha256" text,
	"ksef_session_ref" text,
	"ksef_invoice_ref" text,
	"upo_xml" text,
	"pdf_token" text,
	"pdf_file_id" text,
	"mail_status" text,
	"mail_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"document_id" text NOT NULL,
	"content_type" text NOT NULL,
	"filename" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "number_counters" (
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"series" text NOT NULL,
	"period" text NOT NULL,
	"value" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "number_counters_account_id_mode_series_period_pk" PRIMARY KEY("account_id","mode","series","period")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"type" text NOT NULL,
	"document_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_code" integer,
	"duration_ms" integer,
	"response_body" text,
	"error" text,
	"delivered" text NOT NULL,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"url" text NOT NULL,
	"enabled_events" text[] NOT NULL,
	"description" text,
	"status" text DEFAULT 'enabled' NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seq" bigserial NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_mode_key_pk" PRIMARY KEY("account_id","mode","key")
);
--> statement-breakpoint
CREATE TABLE "ksef_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"kind" text NOT NULL,
	"reference_number" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"secret" text NOT NULL,
	"valid_until" timestamp with time zone,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ksef_tokens" (
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"credential_version" integer NOT NULL,
	"tokens" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ksef_tokens_account_id_mode_pk" PRIMARY KEY("account_id","mode")
);
--> statement-breakpoint
CREATE TABLE "nbp_rates" (
	"currency" text NOT NULL,
	"for_date" text NOT NULL,
	"effective_date" text NOT NULL,
	"table_no" text NOT NULL,
	"rate" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nbp_rates_currency_for_date_pk" PRIMARY KEY("currency","for_date")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limit_windows_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	"info" jsonb
);
--> statement-breakpoint
ALTER TABLE "account_modes" ADD CONSTRAINT "account_modes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_transitions" ADD CONSTRAINT "document_transitions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "number_counters" ADD CONSTRAINT "number_counters_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ksef_sessions" ADD CONSTRAINT "ksef_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ksef_tokens" ADD CONSTRAINT "ksef_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_uq" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id","mode");--> statement-breakpoint
CREATE INDEX "document_transitions_doc_idx" ON "document_transitions" USING btree ("document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_order_uq" ON "documents" USING btree ("account_id","mode","order_external_id") WHERE kind = 'invoice';--> statement-breakpoint
CREATE UNIQUE INDEX "documents_refund_uq" ON "documents" USING btree ("account_id","mode","refund_external_id") WHERE kind = 'correction';--> statement-breakpoint
CREATE UNIQUE INDEX "documents_seq_uq" ON "documents" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_pdf_token_uq" ON "documents" USING btree ("pdf_token");--> statement-breakpoint
CREATE INDEX "documents_newest_idx" ON "documents" USING btree ("account_id","mode","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_invoice_idx" ON "documents" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "documents_status_idx" ON "documents" USING btree ("account_id","mode","status");--> statement-breakpoint
CREATE INDEX "events_newest_idx" ON "events" USING btree ("account_id","mode","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_document_idx" ON "events" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_scope_idx" ON "webhook_endpoints" USING btree ("account_id","mode","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ksef_sessions_scope_idx" ON "ksef_sessions" USING btree ("account_id","mode","status");--> statement-breakpoint
CREATE INDEX "rate_limit_windows_start_idx" ON "rate_limit_windows" USING btree ("window_start");