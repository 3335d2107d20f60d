"""A package whose attributes are made on first use (PEP 562): a name it does not have raises AttributeError,
which is how `getattr(pkg, name, default)` and `hasattr` learn so (pytest asks it for `pytest_plugins`,
`setup_module`, `__test__`, `_mock_name`, ...)."""

import importlib


def __getattr__(name):
    if name == "shapes":
        return importlib.import_module("lazypkg.shapes")
    raise AttributeError(f"module 'lazypkg' has no attribute {name!r}")
