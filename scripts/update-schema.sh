#!/usr/bin/env bash
# Regenerates Migrations/<engine>/schema.sql, the full schema after every migration, after a
# migration was added or changed. Commit the results with the migration so reviewers see the
# schema change as a diff. A test fails while either file is stale.
# - sqlite: Stockroom writes it itself (`stockroom migrate schema` applies the migrations to an
#   in-memory database and prints sqlite_schema).
# - postgres: the schema test applies Migrations/postgres/ on a throwaway server (initdb, as
#   the tests do; scripts/setup.sh --tests installs the server) and, with STOCKROOM_WRITE_SCHEMA=1,
#   writes what the catalog describes.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests >&2
stockroom=$(swift build --show-bin-path)/stockroom
"$stockroom" migrate schema > Migrations/sqlite/schema.sql.tmp
mv Migrations/sqlite/schema.sql.tmp Migrations/sqlite/schema.sql
echo "update-schema: wrote Migrations/sqlite/schema.sql" >&2

STOCKROOM_WRITE_SCHEMA=1 swift test --skip-build \
    --filter 'PostgresMigrationTests/schemaSQLIsTheSchemaTheMigrationsProduce' >&2
echo "update-schema: wrote Migrations/postgres/schema.sql" >&2
