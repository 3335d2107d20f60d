"""Settings configured in code, so that the project is one folder of small files."""

import os

from django.conf import settings

HERE = os.path.dirname(os.path.abspath(__file__))

if not settings.configured:
    settings.configure(
        DEBUG=True, SECRET_KEY="not secret", ALLOWED_HOSTS=["127.0.0.1"], ROOT_URLCONF="urls",
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [os.path.join(HERE, "templates")]}],
        INSTALLED_APPS=[],
    )
