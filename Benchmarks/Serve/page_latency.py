"""W15 (d)'s page client (BENCHMARKS.md, "Issue 36"): asks for one page again and again on one
keep-alive connection, timing each request from its send to the end of its answer, until
SIGINT (or SECONDS have passed); then prints the latencies as "Slow exports" does.

    python3 page_latency.py URL TOKEN [SECONDS]

Prints "pages=N p50_ms=A p99_ms=B max_ms=C". Every request is timed as it was: no
correction for the requests an open-loop client would have sent during a stall (wrk's
`--latency` adds those, which is why its p99 is not this one)."""
import http.client
import signal
import sys
import time
import urllib.parse

url, token = urllib.parse.urlsplit(sys.argv[1]), sys.argv[2]
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3600
stopping = False


def stop(signum, frame):
    global stopping
    stopping = True


signal.signal(signal.SIGINT, stop)
connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
path = url.path + ("?" + url.query if url.query else "")
headers = {"Authorization": "Bearer " + token}
latencies = []
end = time.monotonic() + seconds
while not stopping and time.monotonic() < end:
    start = time.monotonic()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    latencies.append((time.monotonic() - start) * 1000)
    if response.status != 200:
        print(f"page_latency: the page answered {response.status}", file=sys.stderr)
        sys.exit(1)
latencies.sort()
p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))]
print(f"pages={len(latencies)} p50_ms={p(0.5):.2f} p99_ms={p(0.99):.2f} max_ms={latencies[-1]:.2f}")
