"""Benchmarks, equality checks and hostile-input drivers: measuring, never judging."""
