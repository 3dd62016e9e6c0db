"""Tests of ingest (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
