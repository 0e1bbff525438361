"""Pages beside slow exports (BENCHMARKS.md, "Exports beside pages"): EXPORTS clients download
`/api/export` at RATE bytes/s each (a slow reader: small reads, paced), while one client asks
for a page (`/api/items?limit=50`) again and again for SECONDS; prints the page's latencies
and what each export client got.

    python3 slow_exports.py PORT SECONDS [EXPORTS] [RATE]

Prints "pages=N p50_ms=A p99_ms=B max_ms=C exports_bytes=[...]"; a page that gets no answer
within 10 s ends the run (the reads are starved) and says so."""
import http.client
import socket
import sys
import threading
import time

port, seconds = int(sys.argv[1]), float(sys.argv[2])
exports = int(sys.argv[3]) if len(sys.argv) > 3 else 3
rate = int(sys.argv[4]) if len(sys.argv) > 4 else 200_000
stop = threading.Event()
received = [0] * exports


def slow_export(number):
    sock = socket.create_connection(("127.0.0.1", port))
    # A small receive buffer, so the server's writes wait for this reader rather than the kernel.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    sock.sendall(b"GET /api/export?format=jsonl HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
    start = time.monotonic()
    while not stop.is_set():
        chunk = sock.recv(4096)
        if not chunk:
            break
        received[number] += len(chunk)
        # Paced to RATE: sleep until the bytes so far are due.
        due = start + received[number] / rate
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    sock.close()


threads = [threading.Thread(target=slow_export, args=(n,)) for n in range(exports)]
for thread in threads:
    thread.start()
time.sleep(1)  # every export started and holding what it holds
latencies = []
timed_out = False
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
end = time.monotonic() + seconds
while time.monotonic() < end:
    start = time.monotonic()
    try:
        connection.request("GET", "/api/items?limit=50")
        response = connection.getresponse()
        response.read()
    except socket.timeout:
        # A page held for 10 s: the reads are starved; waiting longer proves nothing more.
        latencies.append((time.monotonic() - start) * 1000)
        timed_out = True
        break
    latencies.append((time.monotonic() - start) * 1000)
    if response.status != 200:
        print(f"slow_exports: page answered {response.status}", file=sys.stderr)
        sys.exit(1)
stop.set()
for thread in threads:
    thread.join()
latencies.sort()
p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))]
print(f"pages={len(latencies)} p50_ms={p(0.5):.2f} p99_ms={p(0.99):.2f} max_ms={latencies[-1]:.2f} "
      f"exports_bytes={received}" + (" (a page got no answer within 10 s)" if timed_out else ""))
