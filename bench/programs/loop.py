"""Debuggee for bench/step_latency.py: a long loop, so `step over` can repeat hundreds of times."""


def work(n):
    total = 0  # the benchmark's breakpoint
    count = 0
    last = None
    for i in range(n):
        total += i
        count += 1
        last = i * 2
    return total, count, last


if __name__ == "__main__":
    print(work(10**6))
