-- Benchwright schema on PostgreSQL, version 26: an import of samples, which writes
-- its rows without the write lock and beside the team's other writers
-- (store/import_write.go), counts its samples on their images itself, under the
-- lock, just before it commits: it sets benchwright.import_counts_images for its
-- transaction, and the statement trigger of 0024 leaves those inserts alone. An
-- update of an image's row would otherwise hold that row, which every other
-- insert of a sample on the image updates too, until the import ends.
CREATE OR REPLACE FUNCTION bw_image_use_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF current_setting('benchwright.import_counts_images', true) = 'on' THEN
		RETURN NULL;
	END IF;
	UPDATE images i SET sample_count = i.sample_count + n.c
	FROM (SELECT image_id, count(*) AS c FROM new_samples WHERE image_id IS NOT NULL GROUP BY image_id) n
	WHERE i.id = n.image_id;
	RETURN NULL;
END $$;
