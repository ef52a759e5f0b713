-- Benchwright schema, version 33 (issue 31): nothing changes in SQLite. The
-- version is PostgreSQL's (store/migrations_pg/0033_json_each_rows.sql): the
-- planner's estimate of the rows of bw_json_each, the stand-in there for
-- SQLite's json_each. SQLite's planner already probes an index per value of a
-- json_each(?) list, so its schema stays as it was; the two engines keep one
-- schema version.
SELECT 1;
