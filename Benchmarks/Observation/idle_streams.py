#!/usr/bin/env python3
"""W12 idle cost (issue 27): the CPU time `stockroom serve` uses over IDLE seconds with STREAMS
open `GET /api/events` streams and nothing written (schedstat of every thread, nanoseconds).

    idle_streams.py STOCKROOM_BINARY WORK_DIR [--streams 100] [--idle-seconds 10]
"""
import argparse, os, socket, subprocess, time

def cpu_ms(pid):
    return sum(int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0]) for t in os.listdir(f"/proc/{pid}/task")) / 1e6

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("stockroom"); parser.add_argument("work")
    parser.add_argument("--streams", type=int, default=100); parser.add_argument("--idle-seconds", type=float, default=10)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    db = os.path.join(args.work, "idle.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix): os.remove(db + suffix)
    subprocess.run([args.stockroom, "items", "add", "--name", "x", "--db", db], check=True, stdout=subprocess.DEVNULL)
    server = subprocess.Popen([args.stockroom, "serve", "--db", db, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    port = int(server.stdout.readline().decode().split(":")[2].split("/")[0])
    streams = []
    for _ in range(args.streams):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        streams.append(s)
    for s in streams: s.recv(65536)  # each stream is open and has sent its first bytes
    time.sleep(2)
    before = cpu_ms(server.pid)
    time.sleep(args.idle_seconds)
    print("stockroom serve, %d open event streams, %.0f s with nothing written: %.2f ms CPU"
          % (args.streams, args.idle_seconds, cpu_ms(server.pid) - before))
    server.terminate(); server.wait()

if __name__ == "__main__":
    main()
