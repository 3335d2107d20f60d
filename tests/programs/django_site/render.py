"""Renders the project's template once, outside a server: a breakpoint in the template stops as it renders."""

import django
import site_settings  # noqa: F401
from django.template.loader import render_to_string

django.setup()
print(render_to_string("invoice.html", {"title": "Invoice", "items": [("tea", 3), ("cake", 5)]}))
