"""The Agent Skill: `dap2mcp/SKILL.md`, a page a coding agent loads to learn when to debug with dap2mcp's tools
and how. It ships in the wheel as package data, so an installed dap2mcp can say where its copy lies
(`dap2mcp skill`) and the user links or copies that folder into the agent's skills."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

NAME = "dap2mcp"
"""The skill's name: its folder's name and the `name` of its front matter, which agents require to agree."""


def location() -> Path:
    """The absolute path of the skill's folder (the one holding SKILL.md), read from the installed package rather
    than a checkout, so it is right for a wheel installed by pipx or uv as for the sources."""
    folder = files(__name__) / NAME
    if not isinstance(folder, Path):  # a package imported from a zip: no folder an agent could read
        raise RuntimeError(f"dap2mcp's skill is inside an archive ({folder}), not in a folder on disk")
    return folder.resolve()
