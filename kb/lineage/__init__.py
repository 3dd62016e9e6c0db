"""A rule through the editions: its history and lineage as the build stored them, and the
on-disk cache of lineages.
"""
