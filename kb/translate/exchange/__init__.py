"""The translation report and the KB's bilingual knowledge in the files translators'
tools (CAT tools: OmegaT, Trados, memoQ, Weblate) read:

- :mod:`.xliff`: the worklist as XLIFF 1.2, one ``trans-unit`` per rule;
- :mod:`.tmx`: a translation memory (TMX 1.4b) of the aligned French and English rules;
- :mod:`.tbx`: the termbase as TBX v2 (TBX-Basic, ``<martif>``), historical terms marked.

Why written with lxml and read back with translate-toolkit: translate-toolkit's writers
have no XLIFF groups with titles, no ``alt-trans`` holding both languages, no TMX
properties nor TBX administrative statuses, which these files need; its readers are what
Weblate uses, so the tests read every file back through them. Every file is checked
against the official schemas (:mod:`.validate`) before it is handed out, and text XML 1.0
cannot carry is dropped and counted (:mod:`.xmlchars`), never written.
"""
