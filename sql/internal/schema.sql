-- The exporter's own bookkeeping, apart from the data in main: BI users can ignore this schema.
-- Applied on every open before the internal tables; every statement is idempotent. A database made before
-- this schema had these tables in main: the open moves their rows here (src/load/internalSchema.ts).
CREATE SCHEMA IF NOT EXISTS internal;
