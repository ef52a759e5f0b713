-- Placeholder for version 25, which another branch (issue 25) adds: migrations are
-- numbered without gaps, and this branch's 0026 needs a 0025 to follow. Drop this
-- file when merging that branch's 0025.
SELECT 1;
