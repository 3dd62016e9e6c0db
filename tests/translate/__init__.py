"""Tests of kb.translate (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
