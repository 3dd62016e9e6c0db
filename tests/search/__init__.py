"""Tests of kb.search (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
