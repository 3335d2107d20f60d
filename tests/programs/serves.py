"""Serves HTTP on a free local port until killed, as a small web app does: its loop is the standard library's."""

import http.server
import sys


class Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"hello\n"
        self.send_response(200)  # marker: handler
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


def main():
    server = http.server.HTTPServer(("127.0.0.1", 0), Hello)
    print("serving on port", server.server_address[1], flush=True)
    sys.stdout.flush()
    server.serve_forever(poll_interval=0.2)  # marker: serve


main()
