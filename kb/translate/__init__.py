"""French beside English: align a French translation with an English edition,
detect which English edition it translates, and report where they disagree.

Nothing here translates text. The French and English rules are compared
through language-independent evidence (:mod:`.evidence`): the rules they cite,
the numbers they state, the card names they use, their shape (sentences,
examples) and the game terms they mention through the bilingual labels. The rule
alignment is :mod:`kb.align`'s (its pair type, assignment and candidate strategies)
with that evidence as its scoring strategy (:class:`EvidenceScorer`).
"""

from .align import EvidenceScorer, align_translation, coverage
from .base import detect_base
from .evidence import Features, features, score
from .drift import drift_report
from .report import translation_report

__all__ = ["EvidenceScorer", "Features", "align_translation", "coverage", "detect_base", "drift_report",
           "features", "score", "translation_report"]
