"""Tests of kb.web (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
