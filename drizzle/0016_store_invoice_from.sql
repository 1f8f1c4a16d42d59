-- Store connections: orders placed before invoice_from are not invoiced (issue 35). Existing connections invoiced
-- from the moment they were connected.
ALTER TABLE "store_connections" ADD COLUMN "invoice_from" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "store_connections" SET "invoice_from" = "created_at";
