"""Benchmarks and evaluations. `make bench` runs every `bench_*.py` module's `run()`."""
