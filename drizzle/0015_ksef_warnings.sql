CREATE TABLE "ksef_warnings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" "ksef_environment" NOT NULL,
	"context" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"session_ref" text,
	"invoice_ref" text,
	"ksef_number" text,
	"code" text,
	"message" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ksef_warnings_context_at_idx" ON "ksef_warnings" USING btree ("environment","context","at");--> statement-breakpoint
CREATE INDEX "ksef_warnings_session_ref_idx" ON "ksef_warnings" USING btree ("session_ref");--> statement-breakpoint
CREATE INDEX "ksef_warnings_invoice_ref_idx" ON "ksef_warnings" USING btree ("invoice_ref");--> statement-breakpoint
CREATE INDEX "ksef_warnings_ksef_number_idx" ON "ksef_warnings" USING btree ("ksef_number");