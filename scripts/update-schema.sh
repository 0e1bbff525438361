#!/usr/bin/env bash
# Regenerates Migrations/schema.sql, the full schema after every migration, after a migration
# was added or changed. Stockroom writes it itself (`stockroom migrate schema` applies the
# migrations to an in-memory database and prints sqlite_schema); commit the result with the
# migration so reviewers see the schema change as a diff. A test fails while the file is stale.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product stockroom >&2
stockroom=$(swift build --show-bin-path)/stockroom
"$stockroom" migrate schema > Migrations/schema.sql.tmp
mv Migrations/schema.sql.tmp Migrations/schema.sql
echo "update-schema: wrote Migrations/schema.sql" >&2
