"""System checks of the project's own configuration."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def secret_key_from_environment(app_configs: Any, **kwargs: Any) -> list[Error]:
    """Production must not run on the built-in development secret key."""
    if getattr(settings, "SECRET_KEY_IS_DEV_DEFAULT", False):
        return [
            Error(
                "DJANGO_SECRET_KEY is not set: the development key is in use.",
                hint="Set DJANGO_SECRET_KEY to a long random value in production.",
                id="checker.E001",
            )
        ]
    return []
