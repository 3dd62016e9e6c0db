"""French beside English: align a French translation with an English edition,
detect which English edition it translates, and report where they disagree.

Nothing here translates text. The French and English rules are compared
through language-independent evidence (:mod:`.evidence`): the rules they cite,
the numbers they state, the card names they use, their shape (sentences,
examples) and the game terms they mention through the bilingual labels.
"""

from .align import TPair, align_translation, coverage
from .base import detect_base
from .evidence import Features, features, score
from .drift import drift_report
from .report import translation_report

__all__ = ["Features", "TPair", "align_translation", "coverage", "detect_base", "drift_report",
           "features", "score", "translation_report"]
