"""Snapshots and diffs through `dap2mcp serve` over stdio, on a real debugpy session."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re

from conftest import PROGRAMS, marker, stdio_tools

SHOP = PROGRAMS / "shop.py"
SPIN = PROGRAMS / "spin.py"
NOT_FOUND = "Snapshot '{}' not found. It may have been deleted or the session may have been disconnected."


def at(name: str) -> dict[str, object]:
    return {"file": str(SHOP), "line": marker(SHOP, name)}


async def start_at_start(tools, args: list[str] | None = None) -> dict:
    return await tools.ok("debug", mode="source", path=str(SHOP), args=args or [], breakpoints=[at("start")])


async def test_snapshot_tools_have_the_seeds_parameters_and_annotations():
    async with stdio_tools() as tools:
        listed = {t.name: t for t in (await tools.client.list_tools()).tools}

    def params(name: str) -> set[str]:
        return set(listed[name].input_schema.get("properties", {}))

    assert params("snapshot_create") == {"label", "thread_id", "frame_index", "depth", "sessionId"}
    assert params("snapshot_diff") >= {"snapshot_id_1", "snapshot_id_2"}
    assert listed["snapshot_diff"].input_schema["required"] == ["snapshot_id_1", "snapshot_id_2"]
    assert params("snapshot_list") == {"sessionId"}
    assert params("snapshot_delete") == {"snapshot_id", "sessionId"}
    assert params("snapshot_export") == {"snapshot_id", "path", "offset", "sessionId"}
    assert params("snapshot_import") == {"data", "path", "sessionId"}
    hints = {name: listed[name].annotations for name in listed if name.startswith("snapshot_")}
    expected = {  # (readOnly, destructive, idempotent) as seed 000 gives them
        "snapshot_create": (False, False, False),
        "snapshot_diff": (True, False, True),
        "snapshot_list": (True, False, True),
        "snapshot_delete": (False, True, False),
    }
    for name, triple in expected.items():
        assert (hints[name].read_only_hint, hints[name].destructive_hint, hints[name].idempotent_hint) == triple, name
    assert listed["snapshot_create"].title == "Create State Snapshot"
    assert listed["snapshot_diff"].title == "Compare Two Snapshots"


async def test_create_diff_list_delete_with_nested_paths():
    async with stdio_tools() as tools:
        await start_at_start(tools)
        first = (await tools.ok("snapshot_create", label="before-fix", depth=2))["snapshot"]
        assert re.fullmatch(r"snap-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", first["id"])
        assert first["label"] == "before-fix" and first["depth"] == 2 and first["frameIndex"] == 0
        assert first["functionName"] == "checkout" and isinstance(first["threadId"], int)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", first["timestamp"])
        assert first["variableCount"] > 10  # city, order.customer.*, order.items[...], prices[...]

        await tools.ok("continue", to=at("changed"))
        second = (await tools.ok("snapshot_create", depth=2))["snapshot"]
        assert second["label"] == "snapshot-2"

        compared = await tools.ok("snapshot_diff", snapshot_id_1=first["id"], snapshot_id_2=second["id"])
        diff = compared["diff"]
        assert "warning" not in compared  # one depth: compared whole
        assert diff["snapshotIdA"] == first["id"] and diff["snapshotIdB"] == second["id"]
        assert diff["threadMismatch"] is False
        assert re.fullmatch(r"\d\d:\d\d:\d\d\.\d{3}", diff["timeDelta"])
        modified = {m["path"]: m for m in diff["modified"]}
        assert modified["order.customer.city"] == {
            "name": "city", "path": "order.customer.city", "type": "str",
            "oldValue": "'Warsaw'", "newValue": "'Krakow'"}
        assert modified['prices["tea"]']["oldValue"] == "3.5" and modified['prices["tea"]']["newValue"] == "4.25"
        assert modified["order.items[1]"]["oldValue"] == "'jam'" and modified["order.items[1]"]["newValue"] == "'bread'"
        assert modified["count"]["type"] == "str" and modified["count"]["oldType"] == "int"
        assert {a["path"] for a in diff["added"]} == {"note", "total"}  # `total` is first bound at `start`
        assert {r["path"] for r in diff["removed"]} == {'prices["jam"]', "order.items[3]"}
        summary = diff["summary"]
        assert summary["added"] == 2 and summary["removed"] == 2 and summary["modified"] == len(diff["modified"])
        assert summary["unchanged"] > 0

        against_stop = await tools.ok("snapshot_diff", snapshot_id_1=first["id"], snapshot_id_2="@t0")  # depth 0
        removed = {r["path"] for r in against_stop["diff"]["removed"]}  # a subtree at its root (issue 34 point 13)
        assert "order.customer" in removed and "order.customer.city" not in removed
        assert against_stop["warning"].startswith("the snapshots were taken at depths 2 and 0: what lies below "
                                                  "depth 0 was recorded in one of them only and shows as removed")

        listed = await tools.ok("snapshot_list")
        assert listed["count"] == 2 and [s["id"] for s in listed["snapshots"]] == [first["id"], second["id"]]
        for entry in listed["snapshots"]:
            assert {"id", "label", "timestamp", "threadId", "functionName", "variableCount"} <= set(entry)

        deleted = await tools.ok("snapshot_delete", snapshot_id=first["id"])
        assert deleted == {"success": True, "sessionId": "s1", "deleted": first["id"], "remaining": 1}
        message = await tools.error("snapshot_diff", "SNAPSHOT_NOT_FOUND", snapshot_id_1=first["id"],
                                    snapshot_id_2=second["id"])
        assert message == NOT_FOUND.format(first["id"])
        assert await tools.ok("snapshot_delete") == {"success": True, "sessionId": "s1", "deleted": "all", "remaining": 0}
        assert (await tools.ok("snapshot_list"))["count"] == 0


async def test_errors_follow_the_seed_and_leave_the_session_usable():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        running = await tools.ok("continue", timeout=0.5)
        assert running["state"] == "running"
        message = await tools.error("snapshot_create", "NOT_PAUSED")
        assert message == "Cannot create snapshot while process is running. Pause at a breakpoint first."
        message = await tools.error("snapshot_diff", "SNAPSHOT_NOT_FOUND", snapshot_id_1="snap-invalid",
                                    snapshot_id_2="@t0")
        assert message == NOT_FOUND.format("snap-invalid")
        assert await tools.error("snapshot_delete", "SNAPSHOT_NOT_FOUND", snapshot_id="snap-invalid") == \
            "Snapshot 'snap-invalid' not found."
        await tools.error("snapshot_create", "INVALID_ARGUMENT", depth=-1)
        await tools.error("snapshot_export", "SNAPSHOT_NOT_FOUND", snapshot_id="@c999")
        paused = await tools.ok("pause")
        assert paused["state"] == "paused"
        await tools.error("snapshot_create", "INVALID_ARGUMENT", frame_index=500)
        made = await tools.ok("snapshot_create", depth=1)
        assert made["snapshot"]["variableCount"] >= 1 and "warning" not in made


async def test_every_stop_is_a_snapshot_and_contexts_say_what_changed():
    async with stdio_tools() as tools:
        ctx = await start_at_start(tools)
        assert ctx["cycle"] == 1 and "changes" not in ctx  # nothing to compare the first stop with
        stepped = await tools.ok("step", mode="over")  # total = 0.0
        assert stepped["cycle"] == 2
        assert stepped["changes"]["since"] == 1
        assert stepped["changes"]["added"] == [{"name": "total", "type": "float", "value": "0.0"}]  # path: the name
        await tools.ok("step", mode="over")  # order.customer.city = ... : top-level values do not change
        stepped = await tools.ok("step", mode="over")  # order.items.remove("jam")
        assert stepped["cycle"] == 4
        assert "modified" not in stepped["changes"]  # the order object's repr is unchanged

        for _ in range(2):  # prices["tea"] = 4.25; del prices["jam"]
            stepped = await tools.ok("step", mode="over")
        modified = {m["name"]: m for m in stepped["changes"]["modified"]}
        assert modified["prices"]["oldValue"] == "{'tea': 4.25, 'jam': 4.0}"
        assert modified["prices"]["newValue"] == "{'tea': 4.25}"

        same = (await tools.ok("snapshot_diff", snapshot_id_1="@t-1", snapshot_id_2="@t0"))["diff"]
        assert [{k: v for k, v in m.items() if k != "path"} for m in same["modified"]] == stepped["changes"]["modified"]
        assert same["summary"]["modified"] == len(stepped["changes"]["modified"])
        whole = (await tools.ok("snapshot_diff", snapshot_id_1="@c1", snapshot_id_2="@t0"))["diff"]
        assert {a["path"] for a in whole["added"]} == {"total"}
        assert (await tools.ok("snapshot_list"))["stops"] == {"first": 1, "last": stepped["cycle"]}

        inside = await tools.ok("step", mode="in")  # into apply_discount's call two lines down
        inside = await tools.ok("continue", to=at("inside"))
        assert inside["location"]["function"] == "apply_discount"
        assert "frameChanged" in inside["changes"] and "added" not in inside["changes"]

        message = await tools.error("snapshot_diff", "SNAPSHOT_NOT_FOUND", snapshot_id_1="@c0", snapshot_id_2="@t0")
        assert message.startswith(NOT_FOUND.format("@c0"))


async def test_changes_compare_one_call_with_itself_not_with_another_of_the_same_name():
    """A recursion's next call, or another class's method of the same name, is another frame: its
    variables are not the previous stop's with new values."""
    program = PROGRAMS / "same_names.py"
    async with stdio_tools() as tools:
        first = await tools.ok("debug", mode="source", path=str(program),
                               breakpoints=[{"file": str(program), "line": marker(program, "recurse")}])
        await tools.ok("clear-breakpoints", all=True)
        assert first["location"]["function"] == "count"
        deeper = await tools.ok("step", mode="in")
        assert deeper["location"]["function"] == "count" and len(deeper["frames"]) == len(first["frames"]) + 1
        assert "another call of `count`" in deeper["changes"]["frameChanged"], deeper["changes"]
        assert set(deeper["changes"]) == {"since", "frameChanged"}
        along = await tools.ok("step", mode="over")  # the same call: compared
        assert along["changes"] == {"since": deeper["cycle"]}
        await tools.ok("breakpoint", file=str(program), line=marker(program, "foo"))
        await tools.ok("breakpoint", file=str(program), line=marker(program, "bar"))
        foo = await tools.ok("continue")
        bar = await tools.ok("continue")
        assert (foo["location"]["function"], bar["location"]["function"]) == ("setup", "setup")
        assert "another call of `setup`" in bar["changes"]["frameChanged"], bar["changes"]
        await tools.ok("stop")


async def test_set_variable_shows_in_the_next_snapshot_not_in_the_stop_one():
    async with stdio_tools() as tools:
        await start_at_start(tools)
        await tools.ok("set-variable", name="count", value="41")
        after = (await tools.ok("snapshot_create"))["snapshot"]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1="@t0", snapshot_id_2=after["id"]))["diff"]
        assert diff["modified"] == [{"name": "count", "path": "count", "type": "int", "oldValue": "0", "newValue": "41"}]
        ctx = await tools.ok("context")
        assert {v["name"]: v["value"] for v in ctx["scopes"][0]["variables"]}["count"] == "41"


async def test_cycles_in_the_object_graph_end_the_expansion():
    async with stdio_tools() as tools:
        await start_at_start(tools)
        made = (await tools.ok("snapshot_create", depth=4))["snapshot"]
        data = json.loads((await tools.ok("snapshot_export", snapshot_id=made["id"]))["data"])
        order = next(n for n in data["root"]["children"] if n["id"] == "order")
        parent = next(n for n in order["children"] if n["id"] == "order.parent")
        assert parent["flags"] == ["cycle"] and parent["children"] == []
        customer = next(n for n in order["children"] if n["id"] == "order.customer")
        assert {c["id"] for c in customer["children"]} == {"order.customer.city", "order.customer.name"}


async def test_pact_format_reports_ids_fields_and_moves():
    async with stdio_tools() as tools:
        await start_at_start(tools)
        before = (await tools.ok("snapshot_create", depth=2))["snapshot"]["id"]
        await tools.ok("continue", to=at("changed"))
        after = (await tools.ok("snapshot_create", depth=2))["snapshot"]["id"]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=before, snapshot_id_2=after, format="pact"))["diff"]
        assert set(diff) <= {"added", "removed", "changed", "moved"}
        assert diff["added"] == ["note", "total"]
        assert set(diff["removed"]) == {'prices["jam"]', "order.items[3]"}
        changed = {c["id"]: c["fields"] for c in diff["changed"]}
        assert changed["order.customer.city"] == ["value"]
        assert changed["count"] == ["type", "value"]
        assert changed["order.customer"] == ["children"]
        ids = [c["id"] for c in diff["changed"]]
        assert ids.index("order") < ids.index("order.customer") < ids.index("order.customer.city")
        assert {"from": "order.items[2]", "to": "order.items[1]"} in diff["moved"]  # 'bread' moved up a place


async def test_export_import_baseline_from_an_earlier_run(tmp_path):
    baseline = tmp_path / "baseline.json"
    async with stdio_tools() as tools:
        await start_at_start(tools, ["Warsaw"])
        made = (await tools.ok("snapshot_create", label="warsaw", depth=2))["snapshot"]
        exported = await tools.ok("snapshot_export", snapshot_id=made["id"], path=str(baseline))
        written = baseline.read_bytes()  # with a path, the file alone holds the data: the answer says what it holds
        assert exported == {"success": True, "snapshotId": made["id"], "path": str(baseline), "bytes": len(written),
                            "sha256": hashlib.sha256(written).hexdigest(), "sessionId": exported["sessionId"]}
        again = await tools.ok("snapshot_export", snapshot_id=made["id"])
        assert again["data"].encode() == written  # byte-stable, and exporting changed nothing
        document = json.loads(again["data"])
        assert document["spec_version"] == "PACT/0.1.0" and document["cycle"] == 1
        assert again["data"] == json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

        await tools.ok("stop")
        await tools.error("snapshot_list", "NO_SESSION")
        await start_at_start(tools, ["Lisbon"])
        assert (await tools.ok("snapshot_list"))["count"] == 0  # snapshots went with the old session

        imported = (await tools.ok("snapshot_import", path=str(baseline)))["snapshot"]
        assert imported["id"] != made["id"]
        assert {k: v for k, v in imported.items() if k != "id"} == {k: v for k, v in made.items() if k != "id"}
        assert (await tools.ok("snapshot_export", snapshot_id=imported["id"]))["data"] == again["data"]
        live = (await tools.ok("snapshot_create", depth=2))["snapshot"]["id"]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=imported["id"], snapshot_id_2=live))["diff"]
        # objects sit at other addresses in another run; only what the argument changed differs
        assert {m["path"] for m in diff["modified"]} == {"city", "order.customer.city"}

        tampered = again["data"].replace("'Warsaw'", "'Berlin'")
        message = await tools.error("snapshot_import", "INVALID_ARGUMENT", data=tampered)
        assert "hash" in message
        await tools.error("snapshot_import", "INVALID_ARGUMENT", data="{not json")
        await tools.error("snapshot_import", "INVALID_ARGUMENT", data="[]")
        await tools.error("snapshot_import", "INVALID_ARGUMENT")
        await tools.error("snapshot_import", "FILE_NOT_FOUND", path=str(tmp_path / "missing.json"))
        assert (await tools.ok("snapshot_list"))["count"] == 2  # nothing partial was added


async def test_restart_keeps_saved_snapshots_and_starts_new_stops():
    async with stdio_tools() as tools:
        await start_at_start(tools)
        made = (await tools.ok("snapshot_create", label="before-fix"))["snapshot"]
        await tools.ok("step", mode="over")
        ctx = await tools.ok("restart")
        assert ctx["cycle"] == 1 and "changes" not in ctx
        assert [s["id"] for s in (await tools.ok("snapshot_list"))["snapshots"]] == [made["id"]]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=made["id"], snapshot_id_2="@t0"))["diff"]
        assert diff["summary"]["added"] == diff["summary"]["removed"] == diff["summary"]["modified"] == 0


async def test_soft_limit_warns_at_one_hundred():
    async with stdio_tools() as tools:
        await start_at_start(tools)
        for number in range(1, 101):
            made = await tools.ok("snapshot_create")
            assert ("warning" in made) == (number == 100), number
        assert made["warning"] == "Snapshot count (100) has reached the soft limit. Consider deleting old snapshots."
        assert (await tools.ok("snapshot_list"))["count"] == 100


async def test_a_stop_nobody_looked_at_is_recorded_too():
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(SPIN), stopOnEntry=True)
        assert (await tools.ok("continue", timeout=0.3))["state"] == "running"
        await tools.ok("breakpoint", file=str(SPIN), line=marker(SPIN, "tick"))
        for _ in range(200):  # the breakpoint is hit while no call waits for it
            if (await tools.ok("snapshot_list")).get("stops", {}).get("last") == 2:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the breakpoint's stop was never recorded")
        ctx = await tools.ok("continue")
        assert ctx["cycle"] == 3 and ctx["changes"]["since"] == 2
        unseen = (await tools.ok("snapshot_diff", snapshot_id_1="@c2", snapshot_id_2="@c2"))["diff"]
        assert unseen["summary"]["unchanged"] == 1  # `n`, the one local of tick()
        step = (await tools.ok("snapshot_diff", snapshot_id_1="@c2", snapshot_id_2="@t0"))["diff"]
        assert [m["path"] for m in step["modified"]] == ["n"]


async def test_big_values_and_containers_stay_bounded(tmp_path):
    deep = PROGRAMS / "deep.py"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(deep), breakpoints=[{"file": str(deep), "line": marker(deep, "deep")}])
        made = (await tools.ok("snapshot_create", depth=1))["snapshot"]
        exported = await tools.ok("snapshot_export", snapshot_id=made["id"], path=str(tmp_path / "deep.json"))
        assert "data" not in exported  # larger than one answer holds: the file has it
        nodes = {n["id"]: n for n in json.loads((tmp_path / "deep.json").read_text())["root"]["children"]}
        assert len(nodes["long_text"]["value"]) == 1000 and nodes["long_text"]["flags"] == ["valueTruncated"]
        assert len(nodes["many"]["children"]) == 500
        assert nodes["many"]["flags"] == ["truncated"]  # debugpy lists 500 items at most and says so
        assert nodes["many"]["children"][0]["id"] == 'many["key0"]'


async def test_sets_compare_by_their_members_across_runs(tmp_path):
    """debugpy names a set's members by their id(), other in every run, and a set lists them in the order of
    its hashes, which are seeded per process: an unchanged set diffed as 3 added, 3 removed, 1 modified
    (issue 34). A snapshot names them by their values, and writes the set's text in their sorted order."""
    program = PROGRAMS / "tagged.py"
    stop = [{"file": str(program), "line": marker(program, "print")}]
    baseline = tmp_path / "run1.json"
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), breakpoints=stop, env={"PYTHONHASHSEED": "1"})
        first_order = (await tools.ok("evaluate", expression="repr(tags)"))["value"]
        made = (await tools.ok("snapshot_create", depth=2))["snapshot"]["id"]
        await tools.ok("snapshot_export", snapshot_id=made, path=str(baseline))
        await tools.ok("debug", mode="source", path=str(program), breakpoints=stop, env={"PYTHONHASHSEED": "2"})
        assert (await tools.ok("evaluate", expression="repr(tags)"))["value"] != first_order  # another order
        imported = (await tools.ok("snapshot_import", path=str(baseline)))["snapshot"]["id"]
        live = (await tools.ok("snapshot_create", depth=2))["snapshot"]["id"]
        diff = (await tools.ok("snapshot_diff", snapshot_id_1=imported, snapshot_id_2=live))["diff"]
        assert (diff["added"], diff["removed"], diff["modified"]) == ([], [], []), diff
        node = json.loads((await tools.ok("snapshot_export", snapshot_id=live))["data"])["root"]["children"]
        tags = next(n for n in node if n["name"] == "tags")
        assert [c["id"] for c in tags["children"]] == ['tags["amber"]', 'tags["blue"]', 'tags["green"]', 'tags["red"]']
        assert tags["value"] == "{'amber', 'blue', 'green', 'red'}"
        await tools.ok("stop", all=True)
