"""A settings object whose repr is slow (it 'fetches' the remote values first), beside a heartbeat thread
that counts while the program runs: how long a stop takes to read, and whether the program ran meanwhile."""

import threading
import time


class RemoteSettings:
    def __init__(self, url):
        self.url = url

    def __repr__(self):
        time.sleep(4)  # a round trip to a slow server
        return f"RemoteSettings({self.url!r})"


def heartbeat(beats):
    while True:
        beats[0] += 1
        time.sleep(0.005)


def main():
    beats = [0]
    threading.Thread(target=heartbeat, args=(beats,), daemon=True).start()
    time.sleep(0.05)
    settings = RemoteSettings("https://config.example")
    pending = [settings]
    step = 1  # marker: stop
    step += 1
    print("configured", step, len(pending))


main()
