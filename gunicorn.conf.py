"""Gunicorn settings for production (`gunicorn checker.wsgi -c gunicorn.conf.py`).

Threaded workers: a slow client holds one thread, not a whole worker, so a few slow or
stalled connections cannot stall the site; `timeout` restarts a worker that stops
answering. Every value can be overridden from the environment.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
keepalive = 5
# Bounded requests: the app takes short query strings and small forms.
limit_request_line = 8190
limit_request_fields = 100
accesslog = "-"
