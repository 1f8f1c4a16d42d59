CREATE TABLE "store_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"platform" text DEFAULT 'woocommerce' NOT NULL,
	"url" text NOT NULL,
	"credentials" text NOT NULL,
	"invoice_statuses" text[] DEFAULT array['processing','completed']::text[] NOT NULL,
	"nip_meta_keys" text[],
	"payment_methods" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"customer_note" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'connecting' NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_sync_result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disconnected_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "store_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"hash" text NOT NULL,
	"topic" text NOT NULL,
	"remote_webhook_id" bigint NOT NULL,
	"body" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "store_documents" (
	"document_id" text PRIMARY KEY NOT NULL,
	"store_id" text NOT NULL,
	"remote_order_id" bigint NOT NULL,
	"note_added_at" timestamp with time zone,
	"meta_written_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "store_orders" (
	"store_id" text NOT NULL,
	"kind" text NOT NULL,
	"remote_id" bigint NOT NULL,
	"remote_order_id" bigint NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"message" text,
	"document_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_orders_store_id_kind_remote_id_pk" PRIMARY KEY("store_id","kind","remote_id")
);
--> statement-breakpoint
CREATE TABLE "store_webhooks" (
	"store_id" text NOT NULL,
	"remote_id" bigint NOT NULL,
	"topic" text NOT NULL,
	"secret" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	CONSTRAINT "store_webhooks_store_id_remote_id_pk" PRIMARY KEY("store_id","remote_id")
);
--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_deliveries" ADD CONSTRAINT "store_deliveries_store_id_store_connections_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_documents" ADD CONSTRAINT "store_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_documents" ADD CONSTRAINT "store_documents_store_id_store_connections_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_orders" ADD CONSTRAINT "store_orders_store_id_store_connections_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_webhooks" ADD CONSTRAINT "store_webhooks_store_id_store_connections_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."store_connections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "store_connections_scope_uq" ON "store_connections" USING btree ("account_id","mode") WHERE status <> 'disconnected';--> statement-breakpoint
CREATE UNIQUE INDEX "store_deliveries_hash_uq" ON "store_deliveries" USING btree ("store_id","hash");--> statement-breakpoint
CREATE INDEX "store_deliveries_received_idx" ON "store_deliveries" USING btree ("store_id","received_at");--> statement-breakpoint
CREATE INDEX "store_orders_outcome_idx" ON "store_orders" USING btree ("store_id","outcome");