#!/usr/bin/env python3
"""A filesystem the kernel reports as sshfs, for the tests of what Stockroom refuses on a
network filesystem (a hub file there: SQLite's locks are not safe on one).

    fake_network_fs.py MOUNTPOINT [FILE...]

Mounts a FUSE filesystem of type `fuse.sshfs` at MOUNTPOINT (root only: /dev/fuse and
mount(2), as the tests run) holding one empty-looking regular file per FILE name, prints
`mounted` on a line, and serves the kernel until its standard input closes (or SIGTERM), then
unmounts.
It answers only what looking a path up needs (LOOKUP, GETATTR); every other request (open,
read, write) fails with ENOSYS, so nothing can be written through it. The real sshfs is not
installed on the test machines and needs a server; the kernel's mount table is what Stockroom
reads, and this puts a real entry in it.
"""
import ctypes
import errno
import os
import signal
import struct
import sys
import threading

FUSE_LOOKUP, FUSE_FORGET, FUSE_GETATTR = 1, 2, 3
FUSE_INIT, FUSE_DESTROY, FUSE_BATCH_FORGET = 26, 38, 42
NO_REPLY = {FUSE_FORGET, FUSE_BATCH_FORGET}
ROOT = 1

IN_HEADER = struct.Struct("<IIQQIIII")  # len, opcode, unique, nodeid, uid, gid, pid, padding
OUT_HEADER = struct.Struct("<IiQ")  # len, error, unique
# ino, size, blocks, atime, mtime, ctime, atimensec, mtimensec, ctimensec, mode, nlink, uid,
# gid, rdev, blksize, flags
ATTR = struct.Struct("<QQQQQQIIIIIIIIII")


def attributes(node):
    if node == ROOT:
        return ATTR.pack(ROOT, 0, 0, 0, 0, 0, 0, 0, 0, 0o040755, 2, 0, 0, 0, 4096, 0)
    return ATTR.pack(node, 4096, 8, 0, 0, 0, 0, 0, 0, 0o100644, 1, 0, 0, 0, 4096, 0)


def serve(device, names):
    nodes = {name.encode(): ROOT + 1 + index for index, name in enumerate(names)}
    while True:
        try:
            request = os.read(device, 1 << 20)
        except OSError as error:
            if error.errno == errno.EINTR:
                continue
            return  # ENODEV: unmounted
        length, opcode, unique, node, *_ = IN_HEADER.unpack_from(request)
        body = request[IN_HEADER.size:length]
        if opcode in NO_REPLY:
            continue
        error, payload = -errno.ENOSYS, b""
        if opcode == FUSE_INIT:
            major, minor, readahead, flags = struct.unpack_from("<IIII", body)
            # major, minor, max_readahead, flags, max_background, congestion_threshold,
            # max_write, time_gran, max_pages, map_alignment, flags2, unused[7]
            payload = struct.pack("<IIIIHHIIHHI7I", 7, 31, readahead, 0, 16, 12, 1 << 16, 1, 0, 0, 0, *([0] * 7))
            error = 0
        elif opcode == FUSE_LOOKUP:
            name = body.rstrip(b"\0")
            if node == ROOT and name in nodes:
                # nodeid, generation, entry_valid, attr_valid, their nanoseconds, attr
                payload = struct.pack("<QQQQII", nodes[name], 0, 0, 0, 0, 0) + attributes(nodes[name])
                error = 0
            else:
                error = -errno.ENOENT
        elif opcode == FUSE_GETATTR:
            payload = struct.pack("<QII", 0, 0, 0) + attributes(node)
            error = 0
        elif opcode == FUSE_DESTROY:
            error = 0
        reply = OUT_HEADER.pack(OUT_HEADER.size + len(payload), error, unique) + payload
        try:
            os.write(device, reply)
        except OSError:
            pass  # the request was interrupted: the kernel no longer waits for it


def main():
    mountpoint, names = sys.argv[1], sys.argv[2:]
    device = os.open("/dev/fuse", os.O_RDWR)
    libc = ctypes.CDLL(None, use_errno=True)
    options = f"fd={device},rootmode=40000,user_id=0,group_id=0".encode()
    if libc.mount(b"fake", mountpoint.encode(), b"fuse.sshfs", 0, options) != 0:
        sys.exit(f"error: mount: {os.strerror(ctypes.get_errno())}")
    def unmount(status=0):
        # MNT_DETACH: the mount goes at once, whatever still holds it open.
        libc.umount2(mountpoint.encode(), 2)
        os._exit(status)

    def serving():
        try:
            serve(device, names)  # returns once unmounted
        except BaseException as error:
            # A server that stopped answering would leave every access to the mount hanging.
            print(f"error: the filesystem's server failed: {error!r}", file=sys.stderr, flush=True)
            unmount(1)

    # Killed (the test's deadline, ^C, a closed terminal): the mount must not outlive the
    # server, and the exit status says it was not the ordinary end.
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, lambda *_: unmount(1))
    threading.Thread(target=serving, daemon=True).start()
    print("mounted", flush=True)
    sys.stdin.read()
    unmount()


if __name__ == "__main__":
    main()
