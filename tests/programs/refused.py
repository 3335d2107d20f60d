"""Connects to a port nobody listens on, as a client library would, and lets the error end it."""
import socket


def fetch(port: int) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        return conn.recv(10)


def main() -> None:
    with socket.socket() as probe:  # a port just freed: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    print(fetch(port))


main()
