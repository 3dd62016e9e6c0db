"""Tests of kb.rdf (shared fixtures: tests/conftest.py, helpers: tests/helpers.py).
"""
