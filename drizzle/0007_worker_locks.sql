-- Issue 19: a seller's send steps are serialised by a key held in this table (server/jobs/worker-locks.ts) instead
-- of a graphile-worker named queue per seller, whose job fetch locked every queue row ever made. UNLOGGED: a row
-- lives for one job step, so taking and releasing it commit without a WAL flush; after a server crash the table
-- is empty, and every worker's connections, and so its steps, failed with it.
CREATE UNLOGGED TABLE "worker_locks" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL
);
