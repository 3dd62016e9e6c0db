"""Tests of kb.timeline (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
