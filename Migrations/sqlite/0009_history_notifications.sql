-- Nothing to do on SQLite: a follower learns of a commit from the file itself (inotify on the
-- database's directory, docs/observation.md). PostgreSQL's history_notifications migration makes
-- its history triggers NOTIFY; this file keeps the two engines' migration numbers in step.
SELECT 1;
