"""Tests of kb.store (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
