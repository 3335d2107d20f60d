"""Finding the file that defines `module.function` without importing it (function breakpoints in library code)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from dap2mcp.adapters.python_names import definition_file

PATH = tuple(sys.path)


def test_library_functions_and_methods_are_found_in_their_files():
    assert definition_file("json.loads", PATH) == json.__file__
    assert definition_file("json.decoder.JSONDecoder.raw_decode", PATH) == sys.modules["json.decoder"].__file__
    assert definition_file("logging.Logger.info", PATH) == logging.__file__


def test_a_re_exported_name_is_followed_to_where_it_is_defined():
    # json/__init__.py has `from .decoder import JSONDecoder`
    assert definition_file("json.JSONDecoder.decode", PATH) == sys.modules["json.decoder"].__file__


def test_what_is_not_a_function_of_a_found_module_is_not_found():
    assert definition_file("json.no_such_function", PATH) is None
    assert definition_file("json.decoder.JSONDecoder", PATH) is None  # a class, not a function
    assert definition_file("no_such_module.loads", PATH) is None
    assert definition_file("loads", PATH) is None
    assert definition_file("json..loads", PATH) is None


def test_nothing_is_imported_to_find_it(tmp_path: Path):
    package = tmp_path / "loud"
    package.mkdir()
    (package / "__init__.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w').close()\nfrom .core import run\n")
    (package / "core.py").write_text("class Engine:\n    def start(self):\n        pass\n\n\ndef run():\n    pass\n")
    assert definition_file("loud.run", (str(tmp_path),)) == str(package / "core.py")
    assert definition_file("loud.core.Engine.start", (str(tmp_path),)) == str(package / "core.py")
    assert not (tmp_path / "imported").exists() and "loud" not in sys.modules
