"""Django's development server under its autoreloader: the server runs in a child process, which exits with 3
when a file changes, and the reloader starts a new one (issue 34 point 11)."""

from __future__ import annotations

import shutil
import sys
import threading
import time
import urllib.request

from conftest import PROGRAMS, free_port, marker, stdio_tools

SITE = PROGRAMS / "django_site"


def request_in_background(url: str) -> None:
    """A browser's request: it waits on the server, which waits on the debugger."""
    def ask() -> None:
        for _ in range(40):  # the server may still be starting (or restarting)
            try:
                urllib.request.urlopen(url, timeout=60).read()
                return
            except OSError:
                time.sleep(0.25)
    threading.Thread(target=ask, daemon=True).start()


async def test_the_reloaders_restart_is_named_and_the_new_servers_breakpoint_follows_the_edit(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    views = site / "urls.py"
    line = marker(views, "view")
    url = f"http://127.0.0.1:{free_port()}/"
    async with stdio_tools() as tools:
        started = await tools.ok("debug", mode="source", path=str(site / "manage.py"), cwd=str(site),
                                 args=["runserver", url.removeprefix("http://").rstrip("/")], python=sys.executable,
                                 breakpoints=[{"file": str(views), "line": line}], timeout=3)
        assert started["state"] == "running", started
        request_in_background(url)
        first = await tools.ok("wait", timeout=30)
        assert first["state"] == "paused" and first["parentId"] == "s1" and first["location"]["line"] == line, first
        assert not first.get("breakpointNotes"), first  # the files are as they were when it was set
        server = first["sessionId"]
        assert (await tools.ok("continue", timeout=5))["state"] == "running"
        views.write_text(views.read_text().replace("def invoice(request):", "# a comment\n\n\ndef invoice(request):"))
        ended = await tools.ok("wait", timeout=30)
        assert ended["state"] == "terminated" and ended["sessionId"] == server and ended["exitCode"] == 3, ended
        assert "Django's autoreloader is restarting the server" in ended["hint"], ended
        assert "exception" not in ended, ended  # SystemExit(3) is the reloader's way, not an error
        request_in_background(url)
        again = await tools.ok("wait", timeout=30)
        assert again["state"] == "paused" and again["sessionId"] not in ("s1", server), again
        assert again["location"]["line"] == line + 3 and again["location"]["function"] == "invoice", again
        notes = " ".join(again.get("breakpointNotes") or [])
        assert f"moved from line {line} to line {line + 3} with its code" in notes, again
        await tools.ok("stop", all=True)
