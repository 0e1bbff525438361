"""A server that is not this stockroom's hub, for the refusals a replica makes before it sends
anything: one that answers GET /api/sync with the given JSON document (another protocol or
schema version), or 404 when none is given (an older `stockroom serve`, or another program),
or a 503 problem for the document `503` (a server whose database is down). Prints its port as
its only line, then serves until killed. Usage: fake_hub.py [JSON|503]"""
import http.server
import sys

DOCUMENT = sys.argv[1].encode() if len(sys.argv) > 1 else None


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if DOCUMENT == b"503":
            body = b'{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"the database is not reachable"}'
            self.send_response(503)
            self.send_header("Content-Type", "application/problem+json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/api/sync" and DOCUMENT is not None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(DOCUMENT)))
            self.end_headers()
            self.wfile.write(DOCUMENT)
        else:
            self.send_error(404)

    def log_message(self, *arguments):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
