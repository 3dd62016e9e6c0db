"""Tests of kb.lineage (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
