from django.apps import AppConfig


class CheckerConfig(AppConfig):
    name = "checker"
    verbose_name = "Tractor checker"

    def ready(self) -> None:
        from checker import checks  # noqa: F401  (registers the system checks)
