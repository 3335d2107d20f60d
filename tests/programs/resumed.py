"""Functions whose frames are resumed rather than called: generators and coroutines."""

import asyncio

import resumed_lib


def evens(n):
    """Every even number below 2n."""
    for i in range(n):  # marker: evens first
        yield i * 2


async def fetch(x):
    await asyncio.sleep(0)  # marker: fetch first
    return x + 1


print(list(evens(3)), list(evens(2)))
print(asyncio.run(fetch(4)))
print(list(resumed_lib.pages(2)))
