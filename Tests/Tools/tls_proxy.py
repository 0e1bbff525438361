"""A test-only TLS front for `stockroom serve`, as a reverse proxy is in production
(docs/web.md): accepts TLS on 127.0.0.1 with the given certificate and key, and relays each
connection's bytes to a plain-HTTP port. Prints its own port as its only line, then reads the
port to relay to as a line on stdin (so that the server can be started knowing the proxy's
port, for its --allowed-host), then serves until killed. Usage: tls_proxy.py CERT KEY"""
import socket
import ssl
import sys
import threading


def pipe(source, destination):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            destination.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, destination):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(connection, target_port):
    try:
        upstream = socket.create_connection(("127.0.0.1", target_port))
    except OSError:
        connection.close()
        return
    threading.Thread(target=pipe, args=(connection, upstream), daemon=True).start()
    pipe(upstream, connection)


def main():
    certificate, key = sys.argv[1], sys.argv[2]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)
    target_port = int(sys.stdin.readline())
    while True:
        raw, _ = listener.accept()
        try:
            connection = context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()
            continue
        threading.Thread(target=serve, args=(connection, target_port), daemon=True).start()


if __name__ == "__main__":
    main()
