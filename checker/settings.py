"""Django settings for the Tractor checker.

Everything that differs between a developer's machine and production comes from
the environment (see the table in README.md).  DEBUG is off unless DJANGO_DEBUG
turns it on; with DEBUG off a real DJANGO_SECRET_KEY is required and the secure
cookie/HSTS/SSL settings are on, so ``manage.py check --deploy`` is clean.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", False)
# pytest (>= 8.2) sets PYTEST_VERSION: tests run with DEBUG off but over plain http.
TESTING = "PYTEST_VERSION" in os.environ

_DEV_SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production-0f3c1e8a"
# The development key is a fallback for DEBUG and for offline management commands
# (runcases, bench, tests).  Serving without DEBUG refuses to start without a real
# key: checker/wsgi.py raises, and `check --deploy` reports checker.E001.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "") or _DEV_SECRET_KEY
SECRET_KEY_IS_DEV_DEFAULT = SECRET_KEY == _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")
# The origin of permalinks and QR codes (e.g. https://tractor.example.org); empty: the
# request's host, when ALLOWED_HOSTS names it exactly (checker/web/hosts.py).
PUBLIC_URL = os.environ.get("DJANGO_PUBLIC_URL", "").strip()

INSTALLED_APPS = [
    "django.contrib.staticfiles",
    "django_htmx",
    "checker",
]

MIDDLEWARE = [
    "checker.web.middleware.HeadWithoutBodyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "checker.web.middleware.CookieLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "checker.web.middleware.DatabaseDownMiddleware",
]

ROOT_URLCONF = "checker.urls"
WSGI_APPLICATION = "checker.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "checker.web.context.site",
            ],
            # Template tags live with the web room (no templatetags package of their own).
            "libraries": {"notation": "checker.web.notation"},
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "60")),
        # A persistent connection is checked before each request reuses it (a restarted
        # database server would otherwise cost one failed request per worker).
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Internationalisation: Simplified Chinese by default, English on request.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True
LANGUAGE_COOKIE_NAME = "lang"
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Static files: collected into staticfiles/ and served by whitenoise.
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or TESTING
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG or TESTING
WHITENOISE_AUTOREFRESH = DEBUG
if DEBUG or TESTING:
    # staticfiles/ only exists after collectstatic; finders serve the sources meanwhile.
    warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")

# Request size limits: the checker takes a handful of short query parameters.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024

# Security.  The production values apply whenever DEBUG is off.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Scripts, styles and images come from this site only (htmx is vendored), with no inline
# script or style anywhere: the pages satisfy this policy (tests/test_browser_csp.py).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not TESTING)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # Tests drive the app over plain http (live_server), so cookies cannot be Secure there.
    SESSION_COOKIE_SECURE = not TESTING
    CSRF_COOKIE_SECURE = not TESTING
    LANGUAGE_COOKIE_SECURE = not TESTING

# The /play/ table.  The owner cookie (who may move in a game) is Secure whenever DEBUG is
# off (tests aside, as for the cookies above), HttpOnly and SameSite=Lax.
PLAY_OWNER_COOKIE_SECURE = not DEBUG and not TESTING
# Games one client may create per minute (429 beyond); the client is REMOTE_ADDR, or the
# last address of this header when a proxy sets it (e.g. HTTP_X_FORWARDED_FOR).
PLAY_CREATE_PER_MINUTE = int(os.environ.get("DJANGO_PLAY_CREATE_PER_MINUTE", "30"))
PLAY_CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "").strip()
# Studies one client may start per minute at /studies/ (429 beyond): each one plays up to
# studiespage.MAX_WEB_ROUNDS rounds per arm in the web process.
STUDY_CREATE_PER_MINUTE = int(os.environ.get("DJANGO_STUDY_CREATE_PER_MINUTE", "4"))
# `manage.py purge`: unfinished games untouched for PLAY_KEEP_DAYS, finished ones after
# PLAY_KEEP_FINISHED_DAYS, and simulation runs beyond the newest RUNS_KEEP are deleted.
PLAY_KEEP_DAYS = int(os.environ.get("DJANGO_PLAY_KEEP_DAYS", "30"))
PLAY_KEEP_FINISHED_DAYS = int(os.environ.get("DJANGO_PLAY_KEEP_FINISHED_DAYS", "180"))
RUNS_KEEP = int(os.environ.get("DJANGO_RUNS_KEEP", "200"))
# … and saved workshop rulesets older than RULESETS_KEEP_DAYS that nothing stored still uses.
RULESETS_KEEP_DAYS = int(os.environ.get("DJANGO_RULESETS_KEEP_DAYS", "180"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}

# Labels used by templates (kept here so they are translatable in one place).
SITE_TITLE = _("升级 · 拖拉机 规则检查器")
