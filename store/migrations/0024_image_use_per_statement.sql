-- Benchwright schema, version 24: nothing changes on SQLite. On PostgreSQL
-- (migrations_pg/0024) counting an inserted sample on its image becomes one
-- UPDATE per statement instead of one per row: a bulk insert of 20,000 samples on
-- 40 images rewrote each image row 500 times in one transaction, and every such
-- update walked the row's growing chain of versions. SQLite updates a row in
-- place, so its per-row trigger stays.
SELECT 1;
