"""How multiple instances of an ability behave: redundant, or each on its own.

"Multiple instances of lifelink on the same object are redundant." ->
(lifelink, multiple-instances, redundant); "If a permanent has multiple
instances of lifelink, each triggers separately." (2009-05-01) -> (lifelink,
multiple-instances, separate). A keyword going from triggered to static (the
2009 lifelink and deathtouch) changes this too, and the comparison reports it
(kb.compare.definitional: multiple-instances-changed). French: "Plusieurs
instances de X sur un même objet sont redondantes", "Si un permanent a
plusieurs instances de X, chacune se déclenche séparément".
"""

from __future__ import annotations

import re

from ..rdf.concepts import concept_key
from ..define.common import _clean

ASPECT = "multiple-instances"
_HOLDER = r"(?:object|creature|permanent|spell|player|permanent or player|creature or player)"
_EN_REDUNDANT = re.compile(rf"^Multiple instances of (?:the same kind of )?(?P<x>[a-z][a-z -]*?)"
                           rf"(?: from the same (?:quality|[a-z]+))? on the same {_HOLDER} are redundant\.?$")
_EN_SEPARATE = re.compile(rf"^If an? {_HOLDER} has multiple instances of (?P<x>[a-z][a-z -]*?), "
                          r"each (?:one |of them )?(?:triggers|works|applies|is applied|resolves)(?: separately)?\.?$")
_FR_REDUNDANT = re.compile(r"^(?:Plusieurs|Des) (?:instances|occurrences) (?:de |d')(?P<x>[a-zà-ÿ][a-zà-ÿ' -]*?) "
                           r"sur (?:un|une|le|la) même [a-zà-ÿ ]+ sont redondantes\.?$", re.IGNORECASE)
_FR_SEPARATE = re.compile(r"^Si (?:un|une) [a-zà-ÿ]+ a plusieurs (?:instances|occurrences) (?:de |d')"
                          r"(?P<x>[a-zà-ÿ][a-zà-ÿ' -]*?), chacune (?:se déclenche|fonctionne|s'applique)"
                          r"(?: séparément| indépendamment)?\.?$", re.IGNORECASE)


def read(sentence: str, language: str) -> list[tuple]:
    """(concept, "multiple-instances", "redundant" | "separate", (), "", language)."""
    s = _clean(sentence)
    if language == "fr":
        for pattern, value in ((_FR_REDUNDANT, "redundant"), (_FR_SEPARATE, "separate")):
            m = pattern.match(s)
            if m:
                from ..define.french import _fr_term, _fr_words

                words = _fr_words(m.group("x"))
                term = _fr_term(words, 0)
                if term and term[1] == len(words):
                    return [(term[0], ASPECT, value, (), "", "fr")]
                return [(concept_key(m.group("x")), ASPECT, value, (), "", "fr")]
        return []
    for pattern, value in ((_EN_REDUNDANT, "redundant"), (_EN_SEPARATE, "separate")):
        m = pattern.match(s)
        if m:
            return [(concept_key(m.group("x")), ASPECT, value, (), "", "en")]
    return []
