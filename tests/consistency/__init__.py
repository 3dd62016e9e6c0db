"""Tests of kb.consistency (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
