#!/usr/bin/env python3
"""What migration 0013's capture triggers cost a file that is not a replica (issue 35).

Builds two schemas from Migrations/sqlite/ with the sqlite3 shell, one up to 0012 (before) and
one up to 0013 (after), then inserts the same 100,000 items into each through one prepared
statement (as Stockroom's writes and import do), alternating before and after, three rounds.
On a file with no `sync_replica` row each trigger's WHEN reads that empty one-row table and
does nothing else.

  python3 Benchmarks/Scripts/capture-triggers.py
"""
import glob, os, resource, shutil, sqlite3, subprocess, tempfile, time, uuid

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
folder = tempfile.mkdtemp(prefix="capture-triggers-")
migrations = sorted(glob.glob(os.path.join(root, "Migrations", "sqlite", "[0-9]*.sql")))
for name, last in [("before", 12), ("after", 13)]:
    for script in migrations:
        if int(os.path.basename(script)[:4]) <= last:
            with open(script) as sql:
                subprocess.run(["sqlite3", os.path.join(folder, name + ".db")], stdin=sql, check=True, stdout=subprocess.DEVNULL)
rows = [(str(uuid.uuid4()), f"Item {i} blue widget", i % 50 + 1) for i in range(100_000)]

def run(name):
    path = os.path.join(folder, "run.db")
    shutil.copy(os.path.join(folder, name + ".db"), path)
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    before, started = resource.getrusage(resource.RUSAGE_SELF), time.time()
    connection.execute("BEGIN")
    connection.executemany("INSERT INTO items (id, name, status, quantity, created_at, updated_at) "
                           "VALUES (?, ?, 'in_stock', ?, '2026-11-28T00:00:00.000Z', '2026-11-28T00:00:00.000Z')", rows)
    connection.execute("COMMIT")
    after = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{name:6} {after.ru_utime - before.ru_utime:6.2f} s user {after.ru_stime - before.ru_stime:6.2f} s system "
          f"{time.time() - started:6.2f} s wall", flush=True)
    connection.close()

for _ in range(3):
    for name in ["before", "after"]:
        run(name)
shutil.rmtree(folder)
