"""WSGI entry point: ``gunicorn checker.wsgi``."""

import os

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "checker.settings")

application = get_wsgi_application()

if not settings.DEBUG and settings.SECRET_KEY_IS_DEV_DEFAULT:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off "
        "(use DJANGO_DEBUG=1 for local development)."
    )
