"""An invented "Widget Duel" rules text of the tests' own, framed as the real texts are (title,
effective date, contents, a section of basics, the keyword abilities, a glossary, credits), and a
KB built from it with a card file: for the search tests that need a real build and the real model
over a dozen documents."""

from __future__ import annotations

import json

HEAD = """Widget Duel Comprehensive Rules

These rules are effective as of March 3, 2042.

Contents

1. Basics
100. General
7. Additional Rules
702. Keyword Abilities

Glossary

Credits

1. Basics

100. General

"""


def rules(general: str, keywords: str, glossary: str) -> str:
    """The rules text: ``general`` the rules of section 100, ``keywords`` those of 702, then the
    glossary's entries."""
    return (f"{HEAD}{general.strip()}\n\n7. Additional Rules\n\n702. Keyword Abilities\n\n{keywords.strip()}"
            f"\n\nGlossary\n\n{glossary.strip()}\n\nCredits\n\nInvented by the rulekb test suite. Not a real game.\n")


def built(tmp_path_factory, name: str, text: str, cards: list[dict]):
    """An embedded store built from ``text`` and ``cards`` (Oracle-file objects), without reasoning."""
    from rulekb.kb.build import build
    from rulekb.kb.store.embedded import EmbeddedStore

    where = tmp_path_factory.mktemp(name)
    (where / "cr.txt").write_text(text, encoding="utf-8")
    (where / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    store = EmbeddedStore(where / "store")
    build([str(where / "cr.txt")], store, reasoner="none", cards=str(where / "cards.json"))
    return store
