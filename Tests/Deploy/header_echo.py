#!/usr/bin/env python3
"""A stand-in upstream for the nginx configs: answers every GET with what it received, as JSON.

  header_echo.py PORT NAME

{"backend": NAME, "path": "/ws/ABCDE", "headers": {"host": "...", "x-forwarded-for": "...", ...}}
Upgrade requests get the same 200 answer, so a test sees the headers nginx sent for a WebSocket handshake.
Listens on 127.0.0.1 only.
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = json.dumps({
            "backend": self.server.name,
            "path": self.path,
            "headers": {name.lower(): value for name, value in self.headers.items()},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def main():
    port, name = int(sys.argv[1]), sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.name = name
    server.serve_forever()


if __name__ == "__main__":
    main()
