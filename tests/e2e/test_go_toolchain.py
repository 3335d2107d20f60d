"""Go as projects have it today, under the Delve that `dap2mcp install go` builds for the machine's Go: a module
with a dependency from the module proxy (tests/programs/go_module_dep, pinned by its go.sum), a go.work workspace
of two modules (go_work), Go 1.22/1.23 features (go_modern), and what a build that cannot fetch its modules
answers. Real Delve, real go, a real MCP client over stdio."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

from conftest import PROGRAMS, locals_of, marker, stdio_tools

MODULE = PROGRAMS / "go_module_dep"
LIBRARY = MODULE / "tickets.go"
COMMAND = MODULE / "cmd" / "issue"
WORKSPACE = PROGRAMS / "go_work"
UNITS = WORKSPACE / "units" / "units.go"
MODERN = PROGRAMS / "go_modern" / "main.go"
BUILD = 120  # a first build fetches the module and builds the standard library's packages without optimisation


async def test_a_module_with_a_dependency_from_the_proxy_by_its_directory_or_its_main_file():
    issued = {"file": str(LIBRARY), "line": marker(LIBRARY, "issued")}
    async with stdio_tools() as tools:
        # the module's root holds the library: its one main package (cmd/issue) is the program
        for path in (MODULE, COMMAND / "main.go"):
            ctx = await tools.ok("debug", mode="source", path=str(path), breakpoints=[issued], timeout=BUILD)
            assert ctx["state"] == "paused" and ctx["location"]["line"] == issued["line"], ctx
            assert ctx["location"]["function"] == "tickets.Issue"
            ticket = locals_of(ctx)["ticket"]
            assert ticket.startswith("example.com/tickets.Ticket {ID: uuid.UUID [142,197,211,140,"), ticket
            owner = await tools.ok("evaluate", expression="ticket.Owner")  # the dependency's struct, field by field
            assert owner["type"] == "github.com/google/uuid.NullUUID" and owner["value"].endswith("Valid: true}"), owner
            assert (await tools.ok("evaluate", expression="call ticket.ID.String()"))["value"] == \
                '"8ec5d38c-e51c-5c50-835c-5baa510d4616"'  # a method of the dependency's type, called
            await tools.ok("stop")


async def test_a_modules_tests_stop_at_the_failing_check():
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="test", path=str(MODULE), timeout=BUILD)
        assert ctx["state"] == "paused" and ctx["description"] == "Go test failure: Seats = 3, want 5", ctx
        assert ctx["location"]["function"] == "tickets.TestSeats"
        assert ctx["location"]["line"] == marker(MODULE / "tickets_test.go", "errorf")
        assert locals_of(ctx)["got"] == "3"
        assert "--- PASS: TestIssueIsRepeatable" in ctx["output"]["text"]  # the test before it ran, and passed
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and ended["exitCode"] == 1, ended
        assert "--- FAIL: TestSeats" in ended["output"]["text"]


async def test_a_workspace_of_two_modules_by_its_folder_or_a_modules_folder():
    inches = {"file": str(UNITS), "line": marker(UNITS, "inches")}
    async with stdio_tools() as tools:
        for path in (WORKSPACE, WORKSPACE / "app"):  # the workspace's one program; the module's own folder
            ctx = await tools.ok("debug", mode="source", path=str(path), breakpoints=[inches], timeout=BUILD)
            assert ctx["state"] == "paused" and ctx["location"]["function"] == "units.Length.Inches", ctx
            assert locals_of(ctx)["l"] == 'example.com/units.Length {Millimetres: 2440, Label: "board"}'
            assert [f["function"] for f in ctx["frames"]][:2] == ["units.Length.Inches", "main.main"]
            await tools.ok("stop")
        ctx = await tools.ok("debug", mode="test", path=str(WORKSPACE), timeout=BUILD)  # its one package of tests
        assert ctx["description"] == "Go test failure: Inches = 11, want 12", ctx
        assert ctx["location"]["file"].endswith("go_work/units/units_test.go")
        await tools.ok("stop")


async def test_a_workspace_whose_modules_lie_beside_its_folder(tmp_path: Path):
    """go finds a go.work only above where it runs: the build, in the program's module, is told the workspace."""
    for module in ("app", "units"):
        shutil.copytree(WORKSPACE / module, tmp_path / module)
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "go.work").write_text("go 1.22\n\nuse (\n\t../app\n\t../units\n)\n")
    units = tmp_path / "units" / "units.go"
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(tmp_path / "ws"), timeout=BUILD,
                             breakpoints=[{"file": str(units), "line": marker(units, "inches")}])
        assert ctx["state"] == "paused" and ctx["location"]["function"] == "units.Length.Inches", ctx
        await tools.ok("stop")


async def test_the_sessions_env_applies_to_finding_the_package_and_building_it(tmp_path: Path):
    """Build tags given by GOFLAGS in `env` choose the files; a file kept out by its build constraint (a
    generator's `package main`) does not make a library a program."""
    (tmp_path / "go.mod").write_text("module example.com/tiers\n\ngo 1.22\n")
    (tmp_path / "main.go").write_text('package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("tier", tier()) }\n')
    (tmp_path / "gold.go").write_text('//go:build gold\n\npackage main\n\nfunc tier() string { return "gold" }\n')
    (tmp_path / "plain.go").write_text('//go:build !gold\n\npackage main\n\nfunc tier() string { return "plain" }\n')
    library = tmp_path / "lib"
    library.mkdir()
    (library / "aaa_gen.go").write_text("//go:build ignore\n\npackage main\n\nfunc main() {}\n")  # listed first
    (library / "lib.go").write_text("package lib\n\nfunc One() int { return 1 }\n")
    async with stdio_tools() as tools:
        ended = await tools.ok("debug", mode="source", path=str(tmp_path), env={"GOFLAGS": "-tags=gold"}, timeout=BUILD)
        assert ended["state"] == "terminated" and ended["output"]["text"] == "tier gold\n", ended
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(library), timeout=BUILD)
        assert "has no main package" in message, message


async def test_a_folder_with_several_programs_is_refused_naming_them(tmp_path: Path):
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.go").write_text("package main\n\nfunc main() {}\n")
    (tmp_path / "go.mod").write_text("module example.com/pair\n\ngo 1.22\n")
    async with stdio_tools() as tools:
        message = await tools.error("debug", "INVALID_ARGUMENT", mode="source", path=str(tmp_path), timeout=BUILD)
        assert "2 main packages" in message and "one, two" in message, message


async def test_range_over_functions_and_integers_and_generics_are_stepped_through_and_read():
    body, push, total = (marker(MODERN, name) for name in ("body", "push", "sum"))
    async with stdio_tools() as tools:
        ctx = await tools.ok("debug", mode="source", path=str(MODERN), timeout=BUILD,
                             breakpoints=[{"file": str(MODERN), "line": push}])
        # a method of a generic type, called from a range over an integer
        assert ctx["location"]["line"] == push and locals_of(ctx)["item"] == '"w0"', ctx
        stack = await tools.ok("evaluate", expression="s")
        assert stack["type"] == "*main.Stack[string]" and 'name: "words"' in stack["value"], stack
        await tools.ok("clear-breakpoints", all=True)
        # the body of a range over a function: a closure the iterator calls, stopped in and stepped through
        ctx = await tools.ok("continue", to={"file": str(MODERN), "line": body})
        assert ctx["location"]["line"] == body, ctx
        assert {"depth": "2", "word": '"w2"', "seen": "0"}.items() <= locals_of(ctx).items()
        assert [f["function"] for f in ctx["frames"]][1:3] == ["main.(*Stack[go.shape.string]).All.func1", "main.main"]
        ctx = await tools.ok("step", mode="over")
        assert ctx["location"]["line"] == body + 1 and locals_of(ctx)["seen"] == "2", ctx
        assert ctx["changes"]["modified"] == [{"name": "seen", "type": "int", "oldValue": "0", "newValue": "2"}]
        ctx = await tools.ok("step", mode="over")
        ctx = await tools.ok("step", mode="over")  # back into the iterator, which yields the next item
        ctx = await tools.ok("continue", to={"file": str(MODERN), "line": body})
        assert {"depth": "1", "word": '"w1"', "seen": "2"}.items() <= locals_of(ctx).items(), ctx
        # a generic function, instantiated twice
        ctx = await tools.ok("continue", to={"file": str(MODERN), "line": total})
        assert locals_of(ctx)["values"].startswith("[]int len: 3"), ctx
        ended = await tools.ok("continue")
        assert ended["state"] == "terminated" and "6 6 0.75" in ended["output"]["text"], ended


async def test_a_build_whose_modules_cannot_be_fetched_is_build_failed_in_gos_words(tmp_path: Path):
    typo = tmp_path / "typo"
    typo.mkdir()
    (typo / "go.mod").write_text("module example.com/typo\n\ngo 1.22\n\nrequire github.com/google/uuidd v1.6.0\n")
    (typo / "main.go").write_text('package main\n\nimport "github.com/google/uuidd"\n\nfunc main() { _ = uuid.New() }\n')
    offline = {"GOPROXY": "http://127.0.0.1:9", "GOMODCACHE": str(tmp_path / "modules"), "GOFLAGS": "-mod=mod"}
    async with stdio_tools() as tools:
        message = await tools.error("debug", "BUILD_FAILED", mode="source", path=str(typo), timeout=BUILD)
        assert message.startswith("go could not find the packages the program imports (go list, exit 1):\n"
                                  "main.go:3:8: ") and "github.com/google/uuidd" in message, message
        # no network: the proxy refuses, and go says so (not Delve, not a traceback)
        message = await tools.error("debug", "BUILD_FAILED", mode="source", path=str(COMMAND), env=offline,
                                    timeout=BUILD)
        assert "github.com/google/uuid@v1.6.0" in message and "connection refused" in message, message
        assert "go: downloading" not in message  # the go command's progress is not why it failed
        ctx = await tools.ok("debug", mode="source", path=str(MODERN), timeout=BUILD)  # the server carries on
        assert ctx["state"] == "terminated" and ctx["exitCode"] == 0, ctx


async def test_a_module_proxy_that_never_answers_ends_the_build_at_the_calls_timeout(tmp_path: Path):
    silent = socket.create_server(("127.0.0.1", 0))  # accepts, and never says a word
    silent.listen(16)
    env = {"GOPROXY": f"http://127.0.0.1:{silent.getsockname()[1]}", "GOMODCACHE": str(tmp_path / "modules"),
           "GOFLAGS": "-mod=mod"}
    try:
        async with stdio_tools() as tools:
            for path in (COMMAND, MODULE):  # a program's folder; a module's root, whose program is looked for first
                message = await tools.error("debug", "BUILD_FAILED", mode="source", path=str(path), env=env, timeout=8)
                # cut at the call's 8 s, not at the 180 s bound of a build that waits on nothing but itself
                assert message.startswith("go did not finish within "), message
                assert "s (the call's timeout: a first build that fetches many modules may need a larger one" in message
                assert "github.com/google/uuid" in message  # what it was doing
            ctx = await tools.ok("debug", mode="source", path=str(MODERN), timeout=BUILD)
            assert ctx["state"] == "terminated" and ctx["exitCode"] == 0, ctx
    finally:
        silent.close()
