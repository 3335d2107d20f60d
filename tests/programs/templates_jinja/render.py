"""Renders a Jinja2 template from the file beside it: a breakpoint in the template stops as it renders."""

import os

import jinja2

environment = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.dirname(os.path.abspath(__file__))))
page = environment.get_template("page.html").render(title="Invoice", items=[("tea", 3), ("cake", 5)])
print(page)
