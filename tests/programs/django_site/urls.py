"""One view that renders the template (for `manage.py runserver`)."""

from django.http import HttpResponse
from django.template.loader import render_to_string
from django.urls import path


def invoice(request):
    total = sum(price for _, price in [("tea", 3), ("cake", 5)])  # marker: view
    return HttpResponse(render_to_string("invoice.html", {"title": f"Invoice {total}", "items": []}))


urlpatterns = [path("", invoice)]
