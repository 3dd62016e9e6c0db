"""Tests of kb.reason (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
