-- Benchwright schema, version 26: nothing changes on SQLite. On PostgreSQL
-- (migrations_pg/0026) an import of samples may count its samples on their images
-- itself: it writes its rows beside the team's other writers and takes the write
-- lock only for its last step (store/import_write.go), so its inserts must not
-- lock the images' rows, which every other insert of a sample updates.
SELECT 1;
