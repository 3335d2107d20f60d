"""A small web app that hands its main thread to the standard library's server, as a Flask app hands it to
werkzeug: the loop that runs is library code two calls below the program's own."""

import http.server


class Hello(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"hello\n"
        self.send_response(200)  # marker: handler
        self.end_headers()
        self.wfile.write(body)


def main():
    http.server.test(HandlerClass=Hello, ServerClass=http.server.HTTPServer, port=0, bind="127.0.0.1")  # marker: serve


main()
