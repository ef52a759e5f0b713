-- Benchwright schema, version 31: reserved for another branch of session 13,
-- which brings its own 0031 (this placeholder only keeps the numbering without
-- gaps on the debias branch; the merge keeps the other file and drops this one).
SELECT 1;
