-- The sliding log starts empty: the GCRA's state cannot be turned into admitted times (resets current quotas only).
DELETE FROM "api_rate_limits";--> statement-breakpoint
ALTER TABLE "api_rate_limits" ADD COLUMN "admitted" timestamp with time zone[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_rate_limits" DROP COLUMN "tat";