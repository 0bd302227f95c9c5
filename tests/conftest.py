"""Hypothesis profiles: CI runs a fixed, bounded set; `--hypothesis-profile=long` digs deeper."""

from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=60, derandomize=True, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("long", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("default")
