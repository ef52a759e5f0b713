-- Benchwright schema, version 9: verifier group names in their stored form.
--
-- A group is one group whatever its spacing or case (verify.NormalizeGroup,
-- verify.SameGroup): " A" and "a" were different groups before, so two members of
-- one group could review rounds 1 and 2 of a sample. New names are normalised
-- and matched to an existing group's spelling by the store; this trims the names
-- already stored. (Runs of inner spaces and case are compared by verify.)
UPDATE users SET grp = trim(grp) WHERE grp <> trim(grp);
