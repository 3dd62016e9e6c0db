"""Tests of kb.bench (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
