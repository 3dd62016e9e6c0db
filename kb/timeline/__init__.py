"""Rules over time: which edition is in force on a date, the wordings of a rule with
the interval each was in force, what each edition changed, and feeds of those changes.

- :mod:`.editions`  the one resolver of edition names (ids, ``en/latest``, ``en@2010-03-15``,
  ``--as-of``) used by every command and page that takes an edition;
- :mod:`.wordings`  the build's wording nodes (rk:Wording: number, text and dates in force per
  run of unchanged editions of a lineage) and the queries that read them back;
- :mod:`.effects`   an edition's effects (added, removed, renumbered, reworded, meaning changes);
- :mod:`.feeds`     Atom feeds of new editions and of one rule's changes;
- :mod:`.svg`       server-rendered SVG timelines.
"""
