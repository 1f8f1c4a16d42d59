-- Issue 19: a PDF's streams are already deflated, so PostgreSQL's pglz compression of files.content saved nothing
-- (2,000 one-page invoices: 67 MB either way) and cost 0.37 ms of the database's CPU per stored PDF. EXTERNAL keeps
-- the value out of line, uncompressed. Existing rows keep their storage until rewritten.
ALTER TABLE "files" ALTER COLUMN "content" SET STORAGE EXTERNAL;
