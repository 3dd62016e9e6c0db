"""Tests of kb.define (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
