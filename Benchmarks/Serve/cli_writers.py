"""W10's contrast (BENCHMARKS.md, "Group commit"): 16 `stockroom items add` processes writing
one file at once, each command its own process, connection and durable transaction. Processes
cannot share a commit, so this is what the server's group commit is measured against besides
the one-connection floor.

    python3 cli_writers.py STOCKROOM FILE SECONDS [WRITERS]

Prints "writes=N per_second=R p50_ms=A p99_ms=B failures=F" and checks that every write that
exited 0 is in the file (exit 1 otherwise)."""
import sqlite3
import subprocess
import sys
import threading
import time

stockroom, path, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
writers = int(sys.argv[4]) if len(sys.argv) > 4 else 16
latencies, names, failures = [], [], []
lock = threading.Lock()
end = time.monotonic() + seconds


def writer(number):
    count = 0
    while time.monotonic() < end:
        count += 1
        name = f"CLI {number}-{count}"
        start = time.monotonic()
        result = subprocess.run([stockroom, "items", "add", "--db", path, "--name", name, "--quantity", "1"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.monotonic() - start
        with lock:
            if result.returncode == 0:
                latencies.append(elapsed)
                names.append(name)
            else:
                failures.append(result.stderr.strip())


threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
started = time.monotonic()
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
elapsed = time.monotonic() - started
latencies.sort()


def percentile(p):
    return latencies[min(len(latencies) - 1, int(len(latencies) * p))] * 1000 if latencies else 0


stored = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM items")}
missing = [name for name in names if name not in stored]
print(f"writes={len(latencies)} per_second={len(latencies) / elapsed:.0f} p50_ms={percentile(0.5):.2f} "
      f"p99_ms={percentile(0.99):.2f} failures={len(failures)} missing={len(missing)}"
      + (f" first_failure={failures[0]!r}" if failures else ""))
sys.exit(1 if missing else 0)
