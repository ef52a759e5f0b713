-- Placeholder for schema version 21, another branch's migration, replaced at merge: it
-- keeps the numbering without gaps.
SELECT 1;
