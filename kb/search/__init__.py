"""Ranked search of the rules: find the rule that settles a question.

One full-text index (tantivy: BM25, English and French analysis) is built with
the store and swapped in with it (:mod:`.index`, :mod:`.home`); a question is
read with what the KB knows -- rule numbers, concepts and their defining rules,
historical names (:mod:`.understand`) -- and the KB's signals are fused with
BM25 in one documented ranking (:mod:`.rank`); :mod:`.engine` answers
``rulekb search``, ``/search`` and ``/api/search``; :mod:`.evaluate` is
``rulekb bench search`` (recall@k and MRR on the gold set beside plain BM25).
"""

