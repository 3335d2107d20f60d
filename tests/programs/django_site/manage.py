"""A Django project's manage.py: dap2mcp takes its presence for a Django project (template breakpoints)."""

import sys

import site_settings  # noqa: F401  (settings configured on import)
from django.core.management import execute_from_command_line

if __name__ == "__main__":
    execute_from_command_line(sys.argv)
