CREATE TABLE "api_rate_limits" (
	"bucket" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP TABLE "rate_limit_windows" CASCADE;