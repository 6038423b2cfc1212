"""Tap-count jobs for bench/taps.py: one module per area, each with a list `JOBS`."""
