"""Snapshot benchmarks: diffing two 100,000-node snapshots, and capturing a 10,000-variable frame.

Run:  .venv/bin/python bench/snapshots.py [--repeat 5] [--json FILE]

diff     Two snapshots of ~100,000 nodes that differ in ~100 leaf values plus a few added and
         removed subtrees. Timed: `diff.compare` alone, with the seed-000 output
         (`diff.variables`) and with the PACT output (`diff.pact`), against `deepdiff.DeepDiff`
         on the same data as plain dicts and lists, in turn in one run. Building the snapshots
         (`Node.build`, which hashes every node) happens at capture time and is timed apart.
shifted  A harder diff at ~10,000 and ~20,000 nodes: one item inserted at the front of every
         list of records, so most later nodes change and many count as moved.
capture  A real debugpy session stopped in bench/programs/many_vars.py. Timed:
         `StopRecorder.create(depth=2)` of a frame holding ~10,000 variables: in one `evaluate`
         with debugpy's capture helper (the default), with 16 `variables` requests in flight, and
         one request at a time, alternating in the same session. The same capture against a simulated adapter that answers every request
         after a fixed 1 ms, any number at once, shows what concurrency gives when round trips,
         not the adapter's own work, are the cost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import dataclasses
import datetime
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC
from itertools import islice
from pathlib import Path
from typing import Any

import psutil
from deepdiff import DeepDiff

from dap2mcp import adapters
from dap2mcp.adapters import Target
from dap2mcp.dap import bodies
from dap2mcp.server.snapshot_tools import DIFF_ENTRIES
from dap2mcp.session.session import DebugSession
from dap2mcp.session.stop.capture import CaptureLimits, capture
from dap2mcp.snapshots import diff
from dap2mcp.snapshots.model import Node, Snapshot, child_path, roots_in_order

from benchkit import kill_leftovers, machine, marked_line, write_json

HERE = Path(__file__).resolve().parent
PROGRAM = HERE / "programs" / "many_vars.py"
FRAMES = ("nested", "wide")  # `# marker: NAME` lines in PROGRAM, stopped at in this order
# How `StopRecorder.create` expands the frame: the default (debugpy's helper expands everything in
# one `evaluate`), `variables` requests 16 at a time, and one at a time.
VARIANTS: dict[str, dict[str, Any]] = {
    "one-request": {"one_request": True},
    "concurrent-16": {"one_request": False, "concurrency": 16},
    "sequential": {"one_request": False, "concurrency": 1},
}
SIMULATED_CONCURRENCY = (16, 1, 256)
SIMULATED_LATENCY = 0.001

DIFF_TARGET_MS = 200.0
DIFF_TARGET_RATIO = 10.0
CAPTURE_TARGET_RATIO = 5.0

# The changes between the two diffed states (see `mutate`).
CHANGED_VALUES, CHANGED_TYPES = 95, 5
ADDED_ITEMS, ADDED_KEYS, ADDED_VARIABLES = 3, 2, 1
REMOVED_ITEMS, REMOVED_KEYS = 2, 2
SHIFTED_VARIABLES = (10, 20)  # top-level variables of the shifted-lists diff: ~10,000 and ~20,000 nodes


def ms(seconds: list[float]) -> dict[str, float]:
    values = sorted(s * 1000 for s in seconds)
    return {"median_ms": statistics.median(values), "min_ms": values[0], "max_ms": values[-1], "runs": len(values)}


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()  # so one variant's garbage is not collected on another's clock
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


# -- (a) diff: the state, as plain data and as a snapshot --------------------------------------


def variable(i: int) -> dict[str, Any]:
    """One top-level variable of 1,001 nodes: scalars, a list of 80 records, tags, a small matrix."""
    return {
        "id": i, "name": f"order-{i}", "paid": i % 3 == 0, "note": None,
        **{f"amount{j}": round(i * 10 + j * 1.5, 2) for j in range(8)},
        "items": [{"sku": f"S{i}-{j}", "qty": j % 7, "price": round(j * 0.75, 2), "code": i * 100 + j,
                   **{f"attr{k}": k * j for k in range(6)}} for j in range(80)],
        "tags": [f"tag{(i + j) % 17}" for j in range(50)],
        "matrix": [[i + j * k for k in range(10)] for j in range(5)],
    }


def state() -> dict[str, Any]:
    return {f"v{i:02d}": variable(i) for i in range(100)}


def leaves(value: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every scalar under `value`, in order."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        container = stack.pop()
        pairs = container.items() if isinstance(container, dict) else enumerate(container)
        for key, item in pairs:
            if isinstance(item, dict | list):
                stack.append(item)
            else:
                found.append((container, key))
    return found


def changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "!"
    return 0  # None


def mutate(old: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A later state of `old`: a few items and keys gone, some values changed, a few things added.
    Lists only grow or shrink at the end, so no index shifts: each change is one change to both
    diffs (removing from the middle would make every later item a change, for both alike)."""
    new = copy.deepcopy(old)
    names = sorted(new)
    for name in rng.sample(names, REMOVED_ITEMS):
        new[name]["items"].pop()
    for name in rng.sample(names, REMOVED_KEYS):
        del new[name]["note"]
    picked = rng.sample(leaves(new), CHANGED_VALUES + CHANGED_TYPES)
    for container, key in picked[:CHANGED_VALUES]:
        container[key] = changed(container[key])
    for container, key in picked[CHANGED_VALUES:]:
        container[key] = str(container[key]) + "?"  # a different type, whatever it was
    for name in rng.sample(names, ADDED_ITEMS):
        new[name]["items"].append({"sku": "NEW", "qty": 1, "price": 9.99, "code": -1})
    for name in rng.sample(names, ADDED_KEYS):
        new[name]["refund"] = 12.5
    for i in range(ADDED_VARIABLES):
        new[f"extra{i}"] = {"id": -1, "tags": ["late"]}
    return new


def preview(value: Any) -> str:
    """A value as debugpy shows it: containers by their first few items."""
    def brief(item: Any) -> str:
        return "{...}" if isinstance(item, dict) else "[...]" if isinstance(item, list) else repr(item)

    if isinstance(value, dict):
        shown = ", ".join(f"{k!r}: {brief(v)}" for k, v in islice(value.items(), 10))
        return "{" + shown + (", ...}" if len(value) > 10 else "}")
    if isinstance(value, list):
        shown = ", ".join(brief(v) for v in islice(value, 10))
        return "[" + shown + (", ...]" if len(value) > 10 else "]")
    return repr(value)


Raw = tuple[str, str, str, str, list["Raw"]]
"""(path, name, type, value, children): a variable as the adapter reports it, its path worked out."""


def describe(parent: str, name: str, value: Any) -> Raw:
    """Named as debugpy names children: dict keys by repr (`'items'`), list items by index."""
    path = child_path(parent, name)
    if isinstance(value, dict):
        children = [describe(path, repr(k), v) for k, v in value.items()]
    elif isinstance(value, list):
        children = [describe(path, str(i), v) for i, v in enumerate(value)]
    else:
        children = []
    return path, name, type(value).__name__, preview(value), children


def describe_state(plain: dict[str, Any]) -> list[Raw]:
    return [describe("", name, value) for name, value in plain.items()]


def build(parent: str, raw: Raw) -> Node:
    """What capture does once the replies are in (`capture._build`): Node.build, which hashes, bottom up."""
    path, name, type_, value, children = raw
    return Node.build(parent, name, type_, value, [build(path, child) for child in children])


def to_snapshot(described: list[Raw], label: str) -> Snapshot:
    roots = roots_in_order(build("", raw) for raw in described)
    return Snapshot(id=f"snap-{label}", label=label, timestamp=datetime.datetime.now(UTC), thread_id=1,
                    frame_index=0, function_name="bench", depth=4, cycle=1, roots=roots)


def outermost(nodes: list[Node]) -> int:
    """Subtrees in a pre-order run of whole subtrees (what `compare` puts in added/removed)."""
    count = i = 0
    while i < len(nodes):
        count += 1
        i += nodes[i].size
    return count


def found_by_compare(delta: diff.Delta) -> dict[str, int]:
    leaf_changes = sum(1 for old, new, _ in delta.changed if not old.children and not new.children)
    return {"changed_leaves": leaf_changes, "changed_containers": len(delta.changed) - leaf_changes,
            "added_subtrees": outermost(delta.added), "added_nodes": len(delta.added),
            "removed_subtrees": outermost(delta.removed), "removed_nodes": len(delta.removed)}


def found_by_deepdiff(result: DeepDiff) -> dict[str, int]:
    def count(*keys: str) -> int:
        return sum(len(result.get(key, ())) for key in keys)

    return {"changed_leaves": count("values_changed", "type_changes"),
            "added_subtrees": count("dictionary_item_added", "iterable_item_added"),
            "removed_subtrees": count("dictionary_item_removed", "iterable_item_removed")}


def bench_diff(repeat: int) -> dict[str, Any]:
    old_plain = state()
    new_plain = mutate(old_plain, random.Random(2026))
    old_described, new_described = describe_state(old_plain), describe_state(new_plain)
    build_times = []
    for _ in range(repeat):
        seconds, old = timed(lambda: to_snapshot(old_described, "a"))
        build_times.append(seconds)
    new = to_snapshot(new_described, "b")

    variants: dict[str, Callable[[], Any]] = {
        "compare": lambda: diff.compare(old, new),
        "compare+variables": lambda: diff.bounded(diff.variables(old, new, diff.compare(old, new)), DIFF_ENTRIES),
        "compare+pact": lambda: diff.bounded(diff.pact(diff.compare(old, new)), DIFF_ENTRIES),
        "deepdiff": lambda: DeepDiff(old_plain, new_plain),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    names = list(variants)
    for round_ in range(repeat):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            seconds, _ = timed(variants[name])
            times[name].append(seconds)

    delta = diff.compare(old, new)
    summary = diff.variables(old, new, delta)["summary"]
    ours, theirs = found_by_compare(delta), found_by_deepdiff(DeepDiff(old_plain, new_plain))
    agree = all(ours[key] == theirs[key] for key in theirs)
    results = {name: ms(values) for name, values in times.items()}
    seed = results["compare+variables"]["median_ms"]
    return {
        "nodes": {"old": old.variable_count, "new": new.variable_count},
        "planned": {"changed_leaves": CHANGED_VALUES + CHANGED_TYPES,
                    "added_subtrees": ADDED_ITEMS + ADDED_KEYS + ADDED_VARIABLES,
                    "removed_subtrees": REMOVED_ITEMS + REMOVED_KEYS},
        "found": {"compare": ours, "deepdiff": theirs, "agree": agree, "variables_summary": summary},
        "build_one_snapshot": ms(build_times),
        "results": results,
        "ratio_deepdiff_to_variables": results["deepdiff"]["median_ms"] / seed,
        "ratio_deepdiff_to_build_both_and_variables":
            results["deepdiff"]["median_ms"] / (seed + 2 * ms(build_times)["median_ms"]),
    }


def shifted(count: int, repeat: int) -> dict[str, Any]:
    """A harder diff: one item inserted at the front of every `items` list of `count` variables, so
    every later item moves up one index and most of the state changes."""
    old_plain = dict(islice(state().items(), count))
    new_plain = copy.deepcopy(old_plain)
    for value in new_plain.values():
        value["items"].insert(0, {"sku": "FIRST", "qty": 0})
    old, new = to_snapshot(describe_state(old_plain), "a"), to_snapshot(describe_state(new_plain), "b")
    variants: dict[str, Callable[[], Any]] = {
        "compare+variables": lambda: diff.bounded(diff.variables(old, new, diff.compare(old, new)), DIFF_ENTRIES),
        "compare+pact": lambda: diff.bounded(diff.pact(diff.compare(old, new)), DIFF_ENTRIES),
    }
    times: dict[str, list[float]] = {name: [] for name in variants}
    for _ in range(repeat):
        for name, run in variants.items():
            times[name].append(timed(run)[0])
    delta = diff.compare(old, new)
    return {"nodes": old.variable_count, "changed": len(delta.changed), "added": len(delta.added),
            "moves": len(diff.moves(delta)), **{name: ms(values) for name, values in times.items()}}


def bench_shifted(repeat: int) -> list[dict[str, Any]]:
    """The shifted-lists diff at two sizes, to show how its time grows."""
    return [shifted(count, min(repeat, 3)) for count in SHIFTED_VARIABLES]


# -- (b) capture: a real debugpy session -------------------------------------------------------




def process_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of this process, the adapter and the debuggee."""
    me = psutil.Process()
    out = {"bench": sum(me.cpu_times()[:2]), "adapter": 0.0, "debuggee": 0.0}
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            command = " ".join(child.cmdline())
            role = "adapter" if "debugpy.adapter" in command else "debuggee" if PROGRAM.name in command else None
            if role:
                out[role] += sum(child.cpu_times()[:2])
    return out


class CountingRequester:
    """The session as the recorder's requester, counting the requests it sends."""

    def __init__(self, session: DebugSession) -> None:
        self.session = session
        self.count = 0

    async def request(self, command: str, arguments: dict[str, Any] | None = None,
                      timeout: float = 10.0) -> dict[str, Any]:
        self.count += 1
        return await self.session.request(command, arguments, timeout)


async def capture_frame(session: DebugSession, requester: CountingRequester, variant: str,
                        ) -> tuple[float, int, int, dict[str, float]]:
    """One depth-2 snapshot of the top frame: (seconds, nodes, requests, CPU seconds per process)."""
    recorder = session.recorder
    recorder.capture_limits = dataclasses.replace(CaptureLimits(), **VARIANTS[variant])
    assert session.stop_info is not None and session.stop_info.thread_id is not None
    requester.count = 0
    cpu = process_cpu()
    t0 = time.perf_counter()
    snapshot, _ = await recorder.create(cycle=session.stop_count, thread_id=session.stop_info.thread_id,
                                        frame_index=0, depth=2, label=None)
    seconds = time.perf_counter() - t0
    cpu_after = process_cpu()
    recorder.store.delete(None)  # stay far from the store's limits
    return seconds, snapshot.variable_count, requester.count, {k: cpu_after[k] - cpu[k] for k in cpu}


async def measure_frame(session: DebugSession, requester: CountingRequester, frame: str,
                        repeat: int) -> dict[str, Any]:
    names = list(VARIANTS)
    for variant in names:  # warm-up: the first capture of a frame is slower
        await capture_frame(session, requester, variant)
    runs: dict[str, list[tuple[float, int, int, dict[str, float]]]] = {v: [] for v in names}
    for round_ in range(repeat):
        shift = round_ % len(names)
        for variant in names[shift:] + names[:shift]:
            runs[variant].append(await capture_frame(session, requester, variant))
    results = []
    for variant, samples in runs.items():
        nodes, requests = {s[1] for s in samples}, {s[2] for s in samples}
        cpu = {role: statistics.median(s[3][role] for s in samples) * 1000 for role in samples[0][3]}
        results.append({"variant": variant, **ms([s[0] for s in samples]), "nodes": sorted(nodes),
                        "requests": sorted(requests), "cpu_ms_median": cpu})
    return {"frame": frame, "results": results}


async def bench_capture(repeat: int) -> list[dict[str, Any]]:
    target = Target(mode="source", path=str(PROGRAM), cwd=str(HERE), python=sys.executable)
    session = DebugSession(target, adapters.select(target))
    requester = CountingRequester(session)
    session.recorder._requester = requester  # count the recorder's requests
    frames = []
    try:
        await session.start([{"file": str(PROGRAM), "line": marked_line(PROGRAM, f"# marker: {name}")} for name in FRAMES])
        since = 0
        for name in FRAMES:
            if not await session.wait_for_stop(since, 30) or session.state != "paused":
                raise RuntimeError(f"the debuggee did not stop at `# marker: {name}` (state {session.state})")
            await session.recorder.settle()  # the stop's own (depth 0) snapshot
            frames.append(await measure_frame(session, requester, name, repeat))
            if name != FRAMES[-1]:
                since = await session.resume(None)
    finally:
        await session.close()
    return frames


# -- (b') the same capture against a simulated adapter -----------------------------------------


def simulated_frame() -> tuple[list[bodies.Variable], dict[int, list[bodies.Variable]]]:
    """nested()'s frame, as DAP variables read where they arrive (`bodies.Variable`): 100 containers of 10
    containers of 9 numbers."""
    replies: dict[int, list[dict[str, Any]]] = {}

    def entry(name: str, value: Any) -> dict[str, Any]:
        raw = {"name": name, "value": preview(value), "type": type(value).__name__, "variablesReference": 0}
        if isinstance(value, dict | list):
            raw["variablesReference"] = reference = len(replies) + 1
            pairs = value.items() if isinstance(value, dict) else enumerate(value)
            replies[reference] = []  # claim the number before the children take theirs
            replies[reference] = [entry(repr(k) if isinstance(value, dict) else str(k), v) for k, v in pairs]
        return raw

    top = [entry(f"v{i:02d}", {f"f{j}": [i * 100 + j * 9 + k for k in range(9)] for j in range(10)})
           for i in range(100)]
    return bodies.VariablesBody.read({"variables": top}).variables, \
        {reference: bodies.VariablesBody.read({"variables": kids}).variables for reference, kids in replies.items()}


async def bench_simulated(repeat: int) -> dict[str, Any]:
    top, replies = simulated_frame()
    requests = 0

    async def fetch(reference: int) -> list[bodies.Variable]:
        nonlocal requests
        requests += 1
        await asyncio.sleep(SIMULATED_LATENCY)
        return replies[reference]

    levels = SIMULATED_CONCURRENCY
    runs: dict[int, list[float]] = {c: [] for c in levels}
    nodes: dict[int, set[int]] = {c: set() for c in levels}
    for round_ in range(repeat):
        shift = round_ % len(levels)
        for concurrency in levels[shift:] + levels[:shift]:
            requests = 0
            gc.collect()
            t0 = time.perf_counter()
            roots, _ = await capture(fetch, top, depth=2, hidden=frozenset(), limits=CaptureLimits(concurrency=concurrency))
            runs[concurrency].append(time.perf_counter() - t0)
            nodes[concurrency].add(sum(r.size for r in roots))
    return {"latency_ms": SIMULATED_LATENCY * 1000, "requests": requests,
            "results": [{"variant": f"concurrent-{c}" if c > 1 else "sequential", **ms(runs[c]),
                         "nodes": sorted(nodes[c])} for c in levels]}


# -- reporting ---------------------------------------------------------------------------------




def by_variant(results: list[dict[str, Any]], variant: str) -> dict[str, Any]:
    return next(r for r in results if r["variant"] == variant)


def targets(data: dict[str, Any]) -> list[dict[str, Any]]:
    d = data["diff"]
    seed = d["results"]["compare+variables"]["median_ms"]
    nested = data["capture"][0]["results"]
    speedup = by_variant(nested, "sequential")["median_ms"] / by_variant(nested, "one-request")["median_ms"]
    same_nodes = all(len(r["nodes"]) == 1 for r in nested) and len({r["nodes"][0] for r in nested}) == 1
    return [
        {"what": "diff of two 100k-node snapshots (compare+variables), median", "target": f"< {DIFF_TARGET_MS:g} ms",
         "measured": f"{seed:.1f} ms", "met": seed < DIFF_TARGET_MS},
        {"what": "deepdiff / compare+variables", "target": f">= {DIFF_TARGET_RATIO:g}x",
         "measured": f"{d['ratio_deepdiff_to_variables']:.0f}x",
         "met": d["ratio_deepdiff_to_variables"] >= DIFF_TARGET_RATIO and d["found"]["agree"]},
        {"what": "capture of ~10k variables at depth 2: sequential / one-request",
         "target": f">= {CAPTURE_TARGET_RATIO:g}x", "measured": f"{speedup:.2f}x",
         "met": speedup >= CAPTURE_TARGET_RATIO and same_nodes},
    ]


def report(data: dict[str, Any]) -> None:
    m, d = data["machine"], data["diff"]
    print(f"\nsnapshots, {data['date']}; {data['repeat']} measured runs of each variant, interleaved")
    print(f"machine: {m['nproc']} CPUs, {m['cpu']}; {m['kernel']}; Python {m['python']}; debugpy {m['debugpy']}; "
          f"deepdiff {m['deepdiff']}; load average {data['loadavg_1m']['before']:.2f} before, "
          f"{data['loadavg_1m']['after']:.2f} after")

    print(f"\n(a) diff: {d['nodes']['old']:,} vs {d['nodes']['new']:,} nodes; output limit {DIFF_ENTRIES} entries")
    print(f"{'variant':<20} {'median ms':>10} {'min ms':>9} {'max ms':>9}")
    for name, r in d["results"].items():
        print(f"{name:<20} {r['median_ms']:>10.2f} {r['min_ms']:>9.2f} {r['max_ms']:>9.2f}")
    b = d["build_one_snapshot"]
    print(f"{'(build 1 snapshot)':<20} {b['median_ms']:>10.2f} {b['min_ms']:>9.2f} {b['max_ms']:>9.2f}"
          "   Node.build + hashing, at capture time")
    ours, theirs = d["found"]["compare"], d["found"]["deepdiff"]
    print(f"found: compare {ours['changed_leaves']} changed leaves (+{ours['changed_containers']} containers whose "
          f"value or children changed), {ours['added_subtrees']} added subtrees ({ours['added_nodes']} nodes), "
          f"{ours['removed_subtrees']} removed ({ours['removed_nodes']} nodes)")
    print(f"       deepdiff {theirs['changed_leaves']} changed leaves, {theirs['added_subtrees']} added, "
          f"{theirs['removed_subtrees']} removed -> {'agree' if d['found']['agree'] else 'DISAGREE'} "
          f"(planned {d['planned']['changed_leaves']}, {d['planned']['added_subtrees']}, "
          f"{d['planned']['removed_subtrees']})")
    print(f"deepdiff / compare+variables: {d['ratio_deepdiff_to_variables']:.0f}x; counting both snapshots' "
          f"build too: {d['ratio_deepdiff_to_build_both_and_variables']:.1f}x")

    print("\n(a') one item inserted at the front of every `items` list: most later items change index")
    for r in data["shifted"]:
        print(f"{r['nodes']:>7,} nodes, {r['changed']:,} changed, {r['moves']:,} moves: compare+variables "
              f"{r['compare+variables']['median_ms']:.1f} ms, compare+pact {r['compare+pact']['median_ms']:.1f} ms")
    if len(data["shifted"]) > 1:
        first, last = data["shifted"][0], data["shifted"][-1]
        print(f"{last['nodes'] / first['nodes']:.1f}x the nodes: compare+variables "
              f"{last['compare+variables']['median_ms'] / first['compare+variables']['median_ms']:.1f}x the time, "
              f"compare+pact {last['compare+pact']['median_ms'] / first['compare+pact']['median_ms']:.1f}x")

    print("\n(b) capture at depth 2, real debugpy session (CPU ms: median per capture)")
    print(f"{'frame':<8} {'variant':>13} {'median ms':>10} {'min ms':>9} {'nodes':>7} {'requests':>9} "
          f"{'x seq':>6} {'CPU bench':>10} {'adapter':>8} {'debuggee':>9}")
    for frame in data["capture"]:
        sequential = by_variant(frame["results"], "sequential")["median_ms"]
        for r in frame["results"]:
            cpu = r["cpu_ms_median"]
            print(f"{frame['frame']:<8} {r['variant']:>13} {r['median_ms']:>10.1f} {r['min_ms']:>9.1f} "
                  f"{'/'.join(map(str, r['nodes'])):>7} {'/'.join(map(str, r['requests'])):>9} "
                  f"{sequential / r['median_ms']:>6.2f} {cpu['bench']:>10.0f} {cpu['adapter']:>8.0f} "
                  f"{cpu['debuggee']:>9.0f}")
    s = data["simulated"]
    print(f"\n(b') the same capture of nested()'s shape against a simulated adapter: each of the {s['requests']} "
          f"requests answered after {s['latency_ms']:g} ms, any number at once")
    sequential = by_variant(s["results"], "sequential")["median_ms"]
    for r in s["results"]:
        print(f"{r['variant']:>16}: median {r['median_ms']:7.1f} ms, min {r['min_ms']:7.1f} ms, "
              f"{'/'.join(map(str, r['nodes']))} nodes, {sequential / r['median_ms']:.2f}x sequential")

    print(f"\n{'target':<68} {'wanted':>8} {'measured':>10}")
    for t in data["targets"]:
        print(f"{t['what']:<68} {t['target']:>8} {t['measured']:>10}  {'MET' if t['met'] else 'NOT MET'}")
    if data.get("leftover_children"):
        print(f"\nwarning: {data['leftover_children']} child process(es) were still alive at the end and were killed")




def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="measured runs of each variant (default 5)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    options = parser.parse_args()
    if options.repeat < 1:
        parser.error("--repeat must be at least 1")
    load_before = os.getloadavg()
    data: dict[str, Any] = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
                            "machine": machine("debugpy", "deepdiff"), "repeat": options.repeat}
    try:
        for part, run in (("diff", lambda: bench_diff(options.repeat)),
                          ("shifted", lambda: bench_shifted(options.repeat)),
                          ("capture", lambda: asyncio.run(bench_capture(options.repeat))),
                          ("simulated", lambda: asyncio.run(bench_simulated(options.repeat)))):
            t0 = time.perf_counter()
            print(f"{part} ...", end="", flush=True, file=sys.stderr)
            data[part] = run()
            print(f" {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    finally:
        leftovers = kill_leftovers()
    data["leftover_children"] = leftovers
    data["loadavg_1m"] = {"before": load_before[0], "after": os.getloadavg()[0]}
    data["targets"] = targets(data)
    report(data)
    write_json(options.json, data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
