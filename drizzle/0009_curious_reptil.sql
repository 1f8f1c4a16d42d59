ALTER TABLE "api_rate_limits" ADD COLUMN "admitted" timestamp with time zone[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_rate_limits" DROP COLUMN "tat";