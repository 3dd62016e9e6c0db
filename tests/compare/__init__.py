"""Tests of kb.compare (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
