"""Tests of kb.cli (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
