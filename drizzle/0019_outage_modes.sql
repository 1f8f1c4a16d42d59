CREATE TABLE "ksef_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"source" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "outage_mode" text;--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "outage_notice_id" bigint;--> statement-breakpoint
CREATE INDEX "ksef_notices_starts_at_idx" ON "ksef_notices" USING btree ("starts_at");--> statement-breakpoint
-- documents already issued offline were offline24 (the only mode before outage modes)
UPDATE "documents" SET "outage_mode" = 'offline24' WHERE "offline_mode";
