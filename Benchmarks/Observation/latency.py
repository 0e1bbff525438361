#!/usr/bin/env python3
"""W12: commit-to-notification latency from another process (issue 27).

A writer process (this script) commits one item at a time and takes the time when its commit
returns; the observer's line for that commit is read from a pipe and timed on arrival.
Observers: (a) `stockroom events --follow` (engine: SQLite file, or PostgreSQL through psql as
the writer), (b) `GET /api/events` of `stockroom serve` on the same database, (c) with
`--library PROGRAM`, the library's `HistoryEvents` in a program of its own (ObserveEvents, in
the Benchmarks package), timed when its `for try await` loop receives the event. Prints p50, p90,
p99 and max in milliseconds, and each observer's CPU time over an idle window.

    latency.py STOCKROOM_BINARY WORK_DIR [--commits N] [--engine sqlite|postgres --uri URI] [--library PROGRAM]
"""
import argparse, json, os, select, socket, sqlite3, statistics, subprocess, sys, time, uuid

def percentiles(samples):
    s = sorted(samples)
    pick = lambda q: s[min(len(s) - 1, int(round(q * (len(s) - 1))))]
    return {"n": len(s), "p50": pick(0.50), "p90": pick(0.90), "p99": pick(0.99), "max": s[-1]}

def cpu_seconds(pid):
    """User + system CPU of every thread of `pid`, from schedstat (nanoseconds of run time)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/schedstat") as f:
            total += int(f.read().split()[0])
    return total / 1e9

class LineReader:
    def __init__(self, fd):
        self.fd, self.buffer = fd, b""
    def line(self, timeout=10.0):
        deadline = time.monotonic() + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise TimeoutError("no line within %.0f s" % timeout)
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise EOFError("the observer's output ended")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

class SQLiteWriter:
    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None, timeout=10)
    def commit(self, n):
        item = str(uuid.uuid4())
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) "
                        "VALUES (?, ?, NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                        (item, f"W12 {n}"))
        self.db.execute("COMMIT")
        return time.monotonic(), item

class PsqlWriter:
    """One psql process kept open; `\\echo` after the commit says when it returned."""
    def __init__(self, uri):
        self.psql = subprocess.Popen(["psql", "-X", "-q", "-At", "-d", uri], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.reader = LineReader(self.psql.stdout.fileno())
    def commit(self, n):
        item = str(uuid.uuid4())
        self.psql.stdin.write((f"INSERT INTO items (id, name, color, status, quantity, is_on_back_order, created_at, updated_at) "
                               f"VALUES ('{item}', 'W12 {n}', NULL, 'in_stock', 1, NULL, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');\n"
                               f"\\echo committed\n").encode())
        self.psql.stdin.flush()
        assert self.reader.line() == "committed"
        return time.monotonic(), item

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("stockroom")
    parser.add_argument("work")
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--engine", default="sqlite")
    parser.add_argument("--uri")
    parser.add_argument("--idle-seconds", type=float, default=10)
    parser.add_argument("--sse-only", action="store_true",
                        help="a binary without `events` (main before issue 27): measure GET /api/events alone")
    parser.add_argument("--library", help="ObserveEvents: also time the library's HistoryEvents (W12 c)")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    if args.engine == "sqlite":
        db = os.path.join(args.work, "w12.sqlite")
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix): os.remove(db + suffix)
        subprocess.run([args.stockroom, "items", "add", "--name", "seed", "--db", db], check=True, stdout=subprocess.DEVNULL)
        writer = SQLiteWriter(db)
    else:
        db = args.uri
        subprocess.run([args.stockroom, "items", "add", "--name", "seed", "--db", db], check=True, stdout=subprocess.DEVNULL)
        writer = PsqlWriter(db)
    if args.engine == "sqlite":
        last = sqlite3.connect(db).execute("SELECT max(position) FROM item_events").fetchone()[0]
    else:
        last = int(subprocess.run(["psql", "-X", "-At", "-d", db, "-c", "SELECT max(position) FROM item_events"],
                                  check=True, capture_output=True, text=True).stdout.strip())
    follower = subprocess.Popen(["sleep", "infinity"] if args.sse_only else
                                [args.stockroom, "events", "--follow", "--after", str(last), "--db", db], stdout=subprocess.PIPE)
    server = subprocess.Popen([args.stockroom, "serve", "--db", db, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    url = LineReader(server.stdout.fileno()).line(30)
    port = int(url.split(":")[2].split("/")[0])
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nLast-Event-ID: %d\r\n\r\n" % (port, last))
    sse = LineReader(sock.fileno())
    follow = LineReader(follower.stdout.fileno())
    library = subprocess.Popen([args.library, db, str(last)], stdout=subprocess.PIPE) if args.library else None
    observed = LineReader(library.stdout.fileno()) if library else None

    # Idle: nothing written; CPU time of each observer over the window.
    time.sleep(1)
    before = (cpu_seconds(follower.pid), cpu_seconds(server.pid))
    time.sleep(args.idle_seconds)
    after = (cpu_seconds(follower.pid), cpu_seconds(server.pid))
    idle = {"follower_ms": (after[0] - before[0]) * 1000, "server_one_stream_ms": (after[1] - before[1]) * 1000,
            "seconds": args.idle_seconds}

    cli, web, lib = [], [], []
    for n in range(args.commits):
        committed, item = writer.commit(n)
        if not args.sse_only:
            line = follow.line()
            cli.append((time.monotonic() - committed) * 1000)
            assert item in line, line
        if observed:
            line = observed.line()
            lib.append((time.monotonic() - committed) * 1000)
            assert item in line, line
        while True:
            text = sse.line()
            if text.startswith("data: "):
                web.append((time.monotonic() - committed) * 1000)
                assert item in text, text
                break
        time.sleep(0.005)  # commits apart, as people make them (not a race to hide: each is awaited above)
    if library: library.terminate(); library.wait()
    follower.terminate(); server.terminate()
    follower.wait(); server.wait()
    print(json.dumps({"engine": args.engine, "events_follow_ms": percentiles(cli) if cli else None, "sse_ms": percentiles(web), "library_ms": percentiles(lib) if lib else None, "idle_cpu": idle}, indent=1))

if __name__ == "__main__":
    main()
