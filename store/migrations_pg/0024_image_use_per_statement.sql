-- Benchwright schema on PostgreSQL, version 24: an insert of samples counts them
-- on their images once per statement (store/migrations/0024 says why). Deletes and
-- changes of a sample's image stay per row (they come one at a time).
DROP TRIGGER IF EXISTS image_use_insert ON samples;
CREATE OR REPLACE FUNCTION bw_image_use_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE images i SET sample_count = i.sample_count + n.c
	FROM (SELECT image_id, count(*) AS c FROM new_samples WHERE image_id IS NOT NULL GROUP BY image_id) n
	WHERE i.id = n.image_id;
	RETURN NULL;
END $$;
CREATE TRIGGER image_use_insert AFTER INSERT ON samples
	REFERENCING NEW TABLE AS new_samples FOR EACH STATEMENT EXECUTE FUNCTION bw_image_use_insert();
