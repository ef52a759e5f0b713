-- Benchwright schema, version 19: images by content hash. A team server (and the
-- local app) looks an image up by its SHA-256 alone for every preview and
-- thumbnail it serves (store.ImageFile); UNIQUE (project_id, sha256) cannot serve
-- that, and the lookup scanned every image (5–7 ms at 100k images, 0.01 ms with this).
CREATE INDEX IF NOT EXISTS images_sha256 ON images (sha256, project_id);
