-- Benchwright schema, version 20: reserved. Version 20 belongs to a change made at
-- the same time on another branch (account roles); this file holds its number so
-- that 0021 applies, and is replaced by that change's 0020 when both are merged.
SELECT 1;
