"""Breakpoints in template files: debugpy follows one template engine, armed at launch, and a breakpoint in a
template of a program that renders with neither could never stop (issue 34 point 5)."""

from __future__ import annotations

import sys

from conftest import PROGRAMS, Tools, locals_of, stdio_tools

JINJA = PROGRAMS / "templates_jinja"
DJANGO = PROGRAMS / "django_site"


async def rendered_items(tools: Tools, program, template) -> list[tuple[str, str, str]]:
    """Each stop at line 4 of the template (inside its loop): where, and the loop's variables."""
    stop = await tools.ok("debug", mode="source", path=str(program), python=sys.executable,
                          breakpoints=[{"file": str(template), "line": 4}])
    seen = []
    while stop["state"] == "paused":
        assert stop["reason"] == "breakpoint" and stop["location"]["file"].endswith(template.name), stop
        assert stop["location"]["line"] == 4, stop
        values = locals_of(stop)
        seen.append((values["name"], values["price"], values["title"]))
        stop = await tools.ok("continue")
    assert stop["exitCode"] == 0, stop
    return seen


async def test_a_jinja2_template_breakpoint_stops_at_each_pass_with_the_templates_variables():
    async with stdio_tools() as tools:
        seen = await rendered_items(tools, JINJA / "render.py", JINJA / "page.html")
    assert seen == [("'tea'", "3", "'Invoice'"), ("'cake'", "5", "'Invoice'")]


async def test_a_django_template_breakpoint_stops_at_each_pass_with_the_templates_variables():
    async with stdio_tools() as tools:
        seen = await rendered_items(tools, DJANGO / "render.py", DJANGO / "templates" / "invoice.html")
    # pydevd's Django support stops at each node the line holds: `{{ name }}`, `{{ price }}`
    assert list(dict.fromkeys(seen)) == [("'tea'", "3", "'Invoice'"), ("'cake'", "5", "'Invoice'")], seen


async def test_a_template_breakpoint_where_no_engine_renders_is_refused_saying_why(tmp_path):
    program, template = tmp_path / "plain.py", tmp_path / "page.html"
    program.write_text("print('no templates here')\n")
    template.write_text("<p>{{ x }}</p>\n")
    async with stdio_tools() as tools:
        await tools.ok("debug", mode="source", path=str(program), python=sys.executable, stopOnEntry=True)
        message = await tools.error("breakpoint", "NOT_SUPPORTED", file=str(template), line=1)
        assert "Django or Jinja2" in message and "page.html" in message, message
        assert (await tools.ok("continue"))["exitCode"] == 0  # the session goes on


async def test_a_python_script_without_a_py_name_is_no_template(tmp_path):
    """The template refusal must not catch Python itself: a tool script in bin/ without `.py`, named by its `#!`
    line, and the program's own file, whatever its name, take breakpoints as before."""
    tool = tmp_path / "tool"
    tool.write_text("#!/usr/bin/env python3\ntotal = 0\nfor i in range(3):\n    total += i\nprint(total)\n")
    async with stdio_tools() as tools:
        stop = await tools.ok("debug", mode="source", path=str(tool), python=sys.executable, adapter="debugpy",
                              breakpoints=[{"file": str(tool), "line": 4}])
        assert stop["state"] == "paused" and stop["location"]["line"] == 4, stop
        await tools.ok("stop")
