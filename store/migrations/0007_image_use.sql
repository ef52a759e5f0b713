-- Benchwright schema, version 7: how many samples use each image, kept by triggers.
--
-- The annotator's queue lists the images no sample uses yet, with their number. Asked
-- of the samples, that probes the samples index once per image of the project (22 ms
-- for 20,000 images, whichever few are unused); with the count on the image row and a
-- partial index over the unused ones, it reads only those.
ALTER TABLE images ADD COLUMN sample_count INTEGER NOT NULL DEFAULT 0;

UPDATE images SET sample_count = (SELECT count(*) FROM samples s WHERE s.image_id = images.id);

CREATE INDEX images_unused ON images (project_id, scene, rel_path) WHERE sample_count = 0;

CREATE TRIGGER image_use_insert AFTER INSERT ON samples WHEN NEW.image_id IS NOT NULL
BEGIN UPDATE images SET sample_count = sample_count + 1 WHERE id = NEW.image_id; END;

CREATE TRIGGER image_use_delete AFTER DELETE ON samples WHEN OLD.image_id IS NOT NULL
BEGIN UPDATE images SET sample_count = sample_count - 1 WHERE id = OLD.image_id; END;

CREATE TRIGGER image_use_update AFTER UPDATE OF image_id ON samples
WHEN NEW.image_id IS NOT OLD.image_id
BEGIN
	UPDATE images SET sample_count = sample_count - 1 WHERE id = OLD.image_id;
	UPDATE images SET sample_count = sample_count + 1 WHERE id = NEW.image_id;
END;
