from django.apps import AppConfig


class CheckerConfig(AppConfig):
    name = "checker"
    verbose_name = "Tractor checker"

    def ready(self) -> None:
        from checker import checks  # noqa: F401  (registers the system checks)
        from checker.web import saved

        saved.install()  # saved workshop rulesets load by name wherever a ruleset name does
