-- Benchwright schema on PostgreSQL, version 25: samples of several images, as
-- store/migrations/0025_sample_images.sql builds it on SQLite (its comments say why).
CREATE TABLE IF NOT EXISTS sample_images (
	sample_id TEXT COLLATE "C" NOT NULL REFERENCES samples(id) ON DELETE CASCADE,
	pos       BIGINT NOT NULL CHECK (pos BETWEEN 1 AND 63),
	image_id  BIGINT NOT NULL REFERENCES images(id),
	PRIMARY KEY (sample_id, pos)
);
CREATE INDEX IF NOT EXISTS sample_images_image ON sample_images (image_id);

-- An import writing beside others counts its samples' images itself (migration
-- 0026, store/import_write.go); so it does its sequences' further images.
CREATE OR REPLACE FUNCTION bw_sample_images_use() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' AND current_setting('benchwright.import_counts_images', true) = 'on' THEN
		RETURN NULL;
	END IF;
	IF TG_OP = 'DELETE' THEN
		UPDATE images SET sample_count = sample_count - 1 WHERE id = OLD.image_id;
	ELSE
		UPDATE images SET sample_count = sample_count + 1 WHERE id = NEW.image_id;
	END IF;
	RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER sample_images_use_insert AFTER INSERT ON sample_images
	FOR EACH ROW EXECUTE FUNCTION bw_sample_images_use();
CREATE OR REPLACE TRIGGER sample_images_use_delete AFTER DELETE ON sample_images
	FOR EACH ROW EXECUTE FUNCTION bw_sample_images_use();

CREATE TABLE IF NOT EXISTS release_images (
	release_id   BIGINT NOT NULL,
	sample_id    TEXT COLLATE "C" NOT NULL,
	pos          BIGINT NOT NULL CHECK (pos BETWEEN 1 AND 63),
	image_path   TEXT COLLATE "C" NOT NULL,
	image_sha256 TEXT COLLATE "C" NOT NULL,
	width        BIGINT NOT NULL,
	height       BIGINT NOT NULL,
	PRIMARY KEY (release_id, sample_id, pos),
	FOREIGN KEY (release_id, sample_id) REFERENCES release_samples (release_id, sample_id)
);

CREATE OR REPLACE FUNCTION bw_release_images_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (SELECT sealed FROM releases WHERE id = NEW.release_id) IS DISTINCT FROM 0 THEN
		RAISE EXCEPTION 'releases are frozen' USING ERRCODE = 'restrict_violation';
	END IF;
	RETURN NEW;
END $$;
CREATE OR REPLACE TRIGGER release_images_sealed BEFORE INSERT ON release_images
	FOR EACH ROW EXECUTE FUNCTION bw_release_images_sealed();
CREATE OR REPLACE TRIGGER release_images_immutable_update BEFORE UPDATE ON release_images
	FOR EACH ROW EXECUTE FUNCTION bw_refuse('releases are frozen');
CREATE OR REPLACE TRIGGER release_images_immutable_delete BEFORE DELETE ON release_images
	FOR EACH ROW EXECUTE FUNCTION bw_refuse('releases are frozen');

-- LRR-Bench's shuffled negatives (augment.Shuffle): a third transform.
ALTER TABLE lineage DROP CONSTRAINT IF EXISTS lineage_transform_check;
ALTER TABLE lineage ADD CONSTRAINT lineage_transform_check CHECK (transform IN ('subgraph', 'expand', 'shuffle'));
