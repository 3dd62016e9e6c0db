"""(to be written)"""

from __future__ import annotations


def routes(ctx) -> list:
    return []
