"""Page data: what a rule page reads from the store, written by the build beside it, read in O(1).

One job: answer some of the rule page's named queries for ``(edition, number)`` from a file
the build wrote for exactly that build, instead of evaluating them per request.

- **What is kept** (:data:`.data.ANSWERED`):
  - the rows of the page's named queries whose answer depends on the rule only through its
    lineage (``?rule rk:lineage ?lineage`` then nothing more of ``?rule``): ``lineage-versions``
    (the wordings of the history) and ``rule-in-french``, each evaluated once per lineage -- the
    same named query, for one version of the lineage, in batches -- not once per rule version
    (3,347 lineages against 245,596 rule versions on the full KB); ``rule-history`` is answered
    (no row) only for a rule without a lineage (a partial edition's);
  - each rule's parent number and every parent's rules in document order (``page-structure``,
    one query for the whole KB): ``rule-siblings`` and ``rule-children`` are read from them;
    where the parent's number is not one node (``page-flags``' twice), a rule has two rows or two
    orders tie, the store is asked;
  - which rules have examples, citers, citations (their own or their examples') or consistency
    findings (``page-flags``: the pattern each of those queries anchors on): ``rule-examples``,
    ``rule-referenced-by``, ``rule-references`` and ``rule-consistency`` give no row without
    asking the store for every other rule (most).
  - the rows of ``rules-changed-between`` for every date (:mod:`.changes`: the query run once
    over all dates, its rows in its own order, indexed by date): ``rulekb changes``, the web's
    changes and feeds read any window from them (a long window costs Oxigraph over a second).
  - ``rule`` for a placed rule (one node, a Rule, one parent and order) without a printed
    number (``page-flags``' printed), from what is kept already: a wording is one number and
    one text (:mod:`kb.timeline.wordings`), so the text is its wording's row of
    ``lineage-versions``; which wording a version has is read from the lineage's versions in
    chain order (effective date, then id), checked against each wording's first and last
    edition, count and number (a lineage that does not cut so asks the store); parent and
    order are page-structure's; the IRI is the edition's + ``/rule/N`` (kb.rdf.iris.Minter).
    A rule of no lineage (the French texts) asks the store.
  - ``rule-concepts`` of a rule that states no mention of its own (``page-flags``' mentions: most
    rules' mentions are stated once on their wording, :mod:`kb.rdf.mentions`), from what its
    wording mentions: ``page-wording-concepts``, one query for the whole KB (about 2 s), the rows
    of each wording in the query's order (by label; a tie of labels asks the store).
  tables: (edition, number) -> lineage (a number), parent number, flags, wording (its index
  among the lineage's lineage-versions rows); edition -> its IRI; (edition, parent)
  -> its rules and their orders as JSON; lineage x query -> the rows as JSON; lineage x wording
  (its index among those rows) -> its concepts as JSON; the changes by date; and the examples
  and scoring evidence above). It is
  - for ``--base auto`` (the translation report's candidate English editions): every rule's
    examples (``edition-examples-flagged`` over the whole KB, :mod:`.examples`) and, written by
    the build's ``extra`` (:func:`kb.translate.kept.keep`), every English rule's scoring evidence
    (:mod:`.features`).
- **From the build's memory**: the build hands :func:`write` the rows of ``page-structure``,
  ``page-lineages`` and ``page-flags`` (``known``) made from what it just wrote
  (:func:`kb.rdf.edition.structure_rows`, :func:`kb.rdf.lineage.lineage_rows`, kb.build),
  so only the other queries ask the store; called without them (a test, another writer), it asks
  the store for all.
- **Where**: ``DIR/pages-<stamp>.sqlite`` beside the build's ``DIR/data-<stamp>`` (sqlite3,
  tables: (edition, number) -> lineage (a number), parent number, flags, wording (its index
  among the lineage's lineage-versions rows); edition -> its IRI; (edition, parent)
  -> its rules and their orders as JSON; lineage x query -> the rows as JSON; lineage x wording
  (its index among those rows) -> its concepts as JSON; the changes by date; (edition, number,
  query) -> the rows as JSON; (edition, number) -> its card count; and the examples and scoring
  evidence above). It is
  written after the store's swap under a temporary name and renamed into place: a reader
  never sees a half-written file, and since the name is the build's, never another build's
  data. Until it is there (the seconds after a swap), the page runs its queries as before. A
  remote store's build writes it locally, for its manifest graph (:mod:`.remote`).
- **A rebuild of the same KB** (the same quads loaded, the same code, query texts and pyoxigraph:
  the digest the file keeps, :mod:`.reuse`) copies the previous build's file under its own name
  instead of asking the store again.
- **Exact**: a key whose rule has several lineages, or a query whose text changed since the
  file was written (its text's hash is kept), is not answered from the file: the store is
  asked. The test compares the rows with the named queries' and the rendered pages with and
  without the file (``tests/web/test_page_data.py``).
"""

from .data import ANSWERED, LINEAGE_QUERIES, NONEMPTY_QUERIES, STRUCTURE_QUERIES, companion, write  # noqa: F401
from .reading import PageData, for_store, paged  # noqa: F401
