"""Java bug hunts through `dap2mcp serve` over stdio: java-debug in dap2mcp's host, on the machine's JDK, with a real
MCP client. A single file (tests/programs/java/Orders.java), a jar and a main class on a class path, a Maven project
with a dependency and a failing JUnit 5 test (tests/programs/java_maven), and a JVM started with the JDWP agent,
attached to by pid and connected to by address. Nothing here is skipped: without a JDK, Maven or the host built by
`dap2mcp install java` (scripts/install.sh runs it), these tests fail, naming what is missing."""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import PROGRAMS, code_at, locals_of, marker, stdio_tools

ORDERS = PROGRAMS / "java" / "Orders.java"
TICKER = PROGRAMS / "java" / "Ticker.java"
MAVEN = PROGRAMS / "java_maven"
BUILD = 180  # a Maven build on a busy machine: far above its usual few seconds


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Maven project copied once per test worker (Maven builds into the project's own target/), its tests
    compiled, so that each test's own build is Maven's quick check that nothing changed."""
    copy = tmp_path_factory.mktemp("maven") / "shop"
    shutil.copytree(MAVEN, copy, ignore=shutil.ignore_patterns("target"))
    done = subprocess.run(["mvn", "-q", "-B", "test-compile"], cwd=copy, capture_output=True, text=True, timeout=BUILD)
    assert done.returncode == 0, done.stdout + done.stderr
    return copy


@pytest.fixture(scope="module")
def classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Orders.java compiled with debug information, and a jar of it whose manifest names its main class."""
    out = tmp_path_factory.mktemp("orders")
    subprocess.run(["javac", "-g", "-d", str(out / "classes"), str(ORDERS)], check=True, timeout=120)
    subprocess.run(["jar", "--create", "--file", str(out / "orders.jar"), "--main-class", "Orders",
                    "-C", str(out / "classes"), "."], check=True, timeout=120)
    return out


async def test_a_single_file_bug_hunt_values_steps_evaluation_and_the_uncaught_exception():
    loop, discount, printed = marker(ORDERS, "loop"), marker(ORDERS, "discount"), marker(ORDERS, "print")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(ORDERS), args=["fail"], timeout=BUILD, breakpoints=[
            {"file": str(ORDERS), "line": loop, "condition": "item.quantity() == 1"},
            {"file": str(ORDERS), "line": discount, "logMessage": "discount for {order.customer}: {percent.get(order.customer)}"},
            {"file": str(ORDERS), "line": printed}])
        assert ctx["reason"] == "breakpoint" and ctx["location"]["line"] == loop, ctx
        assert ctx["location"]["function"] == "Orders.total(Orders.Order)"
        assert [f["function"] for f in ctx["frames"]] == ["Orders.total(Orders.Order)", "Orders.main(String[])"]
        values = locals_of(ctx)
        assert values["sum"] == "4.5"  # the condition passed over the pens: the book is the second item
        assert "Item[name=book, quantity=1, price=12.0]" in values["item"]  # a record, by its toString

        assert (await tools.ok("evaluate", expression="item.cost()"))["value"] == "12.0"  # a method called
        assert (await tools.ok("evaluate", expression="order.items.size()"))["value"] == "2"
        assert (await tools.ok("evaluate", expression="sum + item.cost() * 2"))["value"] == "28.5"
        changed = await tools.ok("set-variable", name="sum", value="1.5")
        assert (changed["value"], changed["type"]) == ("1.5", "double")

        ctx = await tools.ok("step", mode="over")
        assert ctx["reason"] == "step" and ctx["location"]["line"] in (loop - 1, loop + 1)  # the loop's test
        assert locals_of(ctx)["sum"] == "13.5"

        ctx = await tools.ok("continue")  # past the log point, to the print
        assert ctx["location"] == {"file": ctx["location"]["file"], "line": printed, "function": "Orders.main(String[])",
                                   "text": code_at(ORDERS, printed)}
        assert "discount for ada: 10\n" in ctx["output"]["text"]  # the log point's message, its values read
        values = locals_of(ctx)
        assert values["count"] == "2" and values["note"] == '"rush"' and values["parsed"] == "-1"  # Integer, String
        assert re.fullmatch(r"HashMap@\d+ size=1 .*", values["percent"]), values  # a map with its size, previewed
        assert "status: NEW" in values["order"] and "items: ArrayList@" in values["order"]  # fields, an enum, a list
        assert (await tools.ok("evaluate", expression='percent.get("ada")'))["value"] == "10"
        assert (await tools.ok("evaluate", expression="order.status"))["value"] == "NEW"
        assert (await tools.ok("evaluate", expression='note + "!"'))["value"] == '"rush!"'
        items = await tools.ok("evaluate", expression="order.items", depth=1)
        assert [c["name"] for c in items["children"]] == ["[0]", "[1]"], items
        assert (await tools.ok("set-variable", name="count", value="7"))["value"] == "7"  # a boxed Integer
        assert (await tools.ok("set-variable", name="order.status", value="Orders.Status.PAID"))["value"] == "PAID"
        refused = await tools.error("evaluate", "ADAPTER_ERROR", expression="(int) sum")
        assert "cast" in refused and "evaluator" in refused  # what it cannot evaluate, it says so

        ctx = await tools.ok("continue")  # the uncaught exception stops where it is thrown, not at the caught one
        assert ctx["reason"] == "exception" and ctx["location"]["line"] == marker(ORDERS, "throw"), ctx
        assert ctx["location"]["function"] == "Orders.ship(Orders.Order)"
        assert ctx["exception"]["typeName"] == "java.lang.IllegalStateException"
        assert ctx["exception"]["message"] == "order of ada still owes 13.5"  # the sum set above
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "Exception in thread \"main\" java.lang.IllegalStateException" in ended["output"]["text"]


async def test_hit_counts_exception_breakpoints_by_class_threads_and_what_is_not_supported():
    loop = marker(ORDERS, "loop")
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(ORDERS), timeout=BUILD, breakpoints=[
            {"exception": "caught", "exceptionTypes": ["NumberFormatException"]},
            {"file": str(ORDERS), "line": loop, "hitCondition": "2"}])
        # the exception the program catches, asked for by its class
        assert ctx["reason"] == "exception" and ctx["exception"]["typeName"] == "java.lang.NumberFormatException", ctx
        assert ctx["location"]["function"] == "Orders.main(String[])"  # the program's frame, below Integer.parseInt
        ctx = await tools.ok("continue")
        assert ctx["location"]["line"] == loop and "name=book" in locals_of(ctx)["item"]  # the second hit only
        threads = await tools.ok("info", type="threads")
        assert "Thread [main]" in [t["name"] for t in threads["items"]]
        await tools.error("breakpoint", "NOT_SUPPORTED", function="Orders.total")
        await tools.error("breakpoint", "NOT_SUPPORTED", file=str(ORDERS), line=loop + 1, hitCondition=">= 2")
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 0 and "done rush" in ended["output"]["text"]


async def test_a_jar_and_a_main_class_on_a_class_path(classes: Path):
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="binary", path=str(classes / "orders.jar"), timeout=BUILD)
        assert ended["state"] == "terminated" and ended["exitCode"] == 0, ended
        assert "total 16.5 off 1.65 items 2 parsed -1" in ended["output"]["text"]
        # no source folder beside these classes: the breakpoint's file is where the class's source is found
        ctx = await tools.ok("debug", mode="binary", mainClass="Orders", classpath=[str(classes / "classes")],
                             timeout=BUILD, breakpoints=[{"file": str(ORDERS), "line": marker(ORDERS, "discount")}])
        assert ctx["location"]["function"] == "Orders.discount(Orders.Order, Map)", ctx
        assert ctx["location"]["file"].endswith("java/Orders.java")
        assert (await tools.ok("evaluate", expression="order.total"))["value"] == "16.5"


async def test_a_maven_project_with_a_dependency_runs_its_main_class(project: Path):
    cart = project / "src/main/java/shop/Cart.java"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(project), timeout=BUILD,
                             breakpoints=[{"file": str(cart), "line": marker(cart, "discount")}])
        assert ctx["location"]["function"] == "Cart.totalCents()" and ctx["location"]["line"] == marker(cart, "discount")
        assert [f["function"] for f in ctx["frames"]] == ["Cart.totalCents()", "App.main(String[])"]
        assert locals_of(ctx)["cost"] == "1800"
        assert (await tools.ok("evaluate", expression="line.sku()"))["value"] == '"PEN"'  # commons-lang3's upperCase
        assert (await tools.ok("evaluate", expression="line.unitCents() / 10"))["value"] == "15"  # the bug: per unit
        ended = await tools.ok("continue")
        assert ended["exitCode"] == 0 and "total 2985 cents, pens 12, mugs 0" in ended["output"]["text"], ended


async def test_maven_tests_stop_where_the_assertion_fails_and_the_filter_selects(project: Path):
    tests = project / "src/test/java/shop/CartTest.java"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="test", path=str(project), timeout=BUILD)
        assert ctx["reason"] == "exception", ctx  # not at the NoSuchElementException the code catches
        assert ctx["location"]["function"] == "CartTest.bulkLinesGetTenPercentOff()"  # the test's frame, below JUnit's
        assert ctx["location"]["line"] == marker(tests, "assert") and ctx["location"]["file"].endswith("shop/CartTest.java")
        assert ctx["exception"]["typeName"] == "org.opentest4j.AssertionFailedError"
        assert ctx["exception"]["message"] == "12 pens at 1.50 less 10% ==> expected: <1620> but was: <1785>"
        assert locals_of(ctx)["total"] == "1785"
        ended = await tools.ok("continue")  # JUnit throwing the failure on is not a second stop
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "Tests run: 2, Failures: 1" in ended["output"]["text"]

        passed = await tools.ok("debug", mode="test", path=str(project), test="CartTest#skus*", timeout=BUILD)
        assert passed["state"] == "terminated" and passed["exitCode"] == 0, passed
        assert "Tests run: 1, Failures: 0" in passed["output"]["text"]
        none = await tools.ok("debug", mode="test", path=str(project), test="NoSuchTest", timeout=BUILD)
        assert none["state"] == "terminated" and none["exitCode"] == 1, none
        assert "No tests matching pattern" in none["output"]["text"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def _ticker(tmp_path: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    subprocess.run(["javac", "-g", "-d", str(tmp_path), str(TICKER)], check=True, timeout=120)
    jvm = subprocess.Popen(["java", f"-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:{port}",
                            "-cp", str(tmp_path), "Ticker"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break  # listening (JDWP takes the next connection, this one closed before its handshake)
            time.sleep(0.1)
        yield jvm
    finally:
        jvm.kill()
        jvm.wait(10)


async def test_a_jvm_started_with_jdwp_attached_to_by_pid_and_connected_to_by_address(tmp_path: Path):
    tick = marker(TICKER, "tick")
    port = _free_port()
    with _ticker(tmp_path, port) as jvm:
        async with stdio_tools() as tools:
            ctx = await tools.ok("debug", mode="attach", processId=jvm.pid, path=str(TICKER.parent),
                                 breakpoints=[{"file": str(TICKER), "line": tick}])
            assert ctx["location"]["line"] == tick and ctx["location"]["function"] == "Ticker.main(String[])", ctx
            assert locals_of(ctx)["name"] == '"ticker"'
            assert int((await tools.ok("evaluate", expression="ticks + 1"))["value"]) > 1
            stopped = await tools.ok("stop")
            assert "runs on" in stopped["description"]
            assert jvm.poll() is None  # detached, not ended

            ctx = await tools.ok("debug", mode="connect", adapter="java", address=f"127.0.0.1:{port}",
                                 path=str(TICKER.parent), breakpoints=[{"file": str(TICKER), "line": tick}])
            assert ctx["location"]["line"] == tick and ctx["location"]["file"].endswith("java/Ticker.java"), ctx
            await tools.ok("stop")
            assert jvm.poll() is None
