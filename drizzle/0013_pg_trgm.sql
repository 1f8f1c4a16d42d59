-- the invoice search's "contains" index (documents_haystack_trgm_idx, next migration) is a trigram GIN index
CREATE EXTENSION IF NOT EXISTS pg_trgm;
