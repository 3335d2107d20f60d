"""Nested state for snapshot diffs and `evaluate` depth (issue 34 points 13 and 15): an asyncio worker whose
objects have methods among their attributes (a queue, a task, a bound method), and a dict of lists of lists."""

import asyncio


class Worker:
    def __init__(self, name):
        self.name = name
        self.queue = asyncio.Queue()
        self.done = []
        self._on_item = self.handle  # a bound method kept as an attribute: the class's, not state

    def handle(self, item):
        self.done.append(item)

    async def run(self):
        while True:
            item = await self.queue.get()
            self._on_item(item)
            self.queue.task_done()


async def main():
    worker = Worker("w1")
    task = asyncio.create_task(worker.run())
    handlers = {"done": worker.handle}  # a method kept as data: an item, not an attribute
    grid = {"k": [1, 2, 3], "rows": [[[1, 2], [3]], [[4]]], "n": 0}
    await worker.queue.put(1)
    await asyncio.sleep(0)
    print("first", len(handlers))  # marker: first
    grid["k"][2] = 4
    await worker.queue.put(2)
    await asyncio.sleep(0)
    print("second")  # marker: second
    task.cancel()


asyncio.run(main())
