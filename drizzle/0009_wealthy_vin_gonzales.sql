CREATE TABLE "attention_notices" (
	"account_id" text NOT NULL,
	"mode" "mode" NOT NULL,
	"kind" text NOT NULL,
	"first_notified_at" timestamp with time zone NOT NULL,
	"last_digest_at" timestamp with time zone,
	"cleared_at" timestamp with time zone,
	CONSTRAINT "attention_notices_account_id_mode_kind_pk" PRIMARY KEY("account_id","mode","kind")
);
--> statement-breakpoint
ALTER TABLE "account_modes" ADD COLUMN "ksef_credential_valid_to" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "attention_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "attention_notices" ADD CONSTRAINT "attention_notices_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;