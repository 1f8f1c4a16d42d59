CREATE TABLE "ksef_batch_documents" (
	"batch_id" text NOT NULL,
	"document_id" text NOT NULL,
	"file_name" text NOT NULL,
	CONSTRAINT "ksef_batch_documents_batch_id_document_id_pk" PRIMARY KEY("batch_id","document_id")
);
--> statement-breakpoint
CREATE TABLE "ksef_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"status" text DEFAULT 'building' NOT NULL,
	"reference_number" text,
	"document_count" integer NOT NULL,
	"session_status_code" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ksef_rate_limits" (
	"environment" "ksef_environment" NOT NULL,
	"group" text NOT NULL,
	"per_second" integer NOT NULL,
	"per_minute" integer NOT NULL,
	"per_hour" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ksef_rate_limits_environment_group_pk" PRIMARY KEY("environment","group")
);
--> statement-breakpoint
CREATE TABLE "ksef_request_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"limiter" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ksef_throttle_blocks" (
	"limiter" text PRIMARY KEY NOT NULL,
	"blocked_until" timestamp with time zone NOT NULL,
	"rate_limited_count" integer DEFAULT 0 NOT NULL,
	"last_rate_limited_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ksef_batch_documents" ADD CONSTRAINT "ksef_batch_documents_batch_id_ksef_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."ksef_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ksef_batch_documents" ADD CONSTRAINT "ksef_batch_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ksef_batches" ADD CONSTRAINT "ksef_batches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ksef_batch_documents_document_idx" ON "ksef_batch_documents" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "ksef_batches_scope_status_idx" ON "ksef_batches" USING btree ("account_id","mode","status");--> statement-breakpoint
CREATE INDEX "ksef_request_log_limiter_at_idx" ON "ksef_request_log" USING btree ("limiter","at");