"""The front door: what the front-ends (``kb.cli``, ``kb.web``) may call.

Plain functions over a store, shared by the CLI and the web endpoint. Each
answers one question and returns plain data (the JSON shapes of DESIGN.md) or
the domain objects a page renders; none of them builds SPARQL text. The work is
in the domain modules, imported when a function is first called (so ``rulekb
--help`` stays fast). New domain entry points go here, under the heading of
their concern; ``tests/test_facade.py`` fails when the CLI or the web imports a
deep ``kb`` module it does not list.

Where a function takes ``store``, it is a :class:`kb.store.kind.Store` or, where
said, a callable giving one (opened only when an edition id needs it).

The store ........ open_store, Store, run (a named query), editions, built_base
A rule ........... rule, history, default_edition, lineage, describe
Editions ......... edition (an id or a source file), stored_edition
Questions ........ asker (define, ask)
Comparisons ...... diff, diff_report, contradictions, cite_check
Translation ...... translation, french_edition, newest_english,
                   translation_xliff, translation_memory, term_pairs, termbase (the CAT tools' files)
Building ......... build, export, validate, corpus_dir
"""

from __future__ import annotations

from .store import queries
from .store.kind import Store  # noqa: F401  (the interface front-ends type against)


# -- the store ------------------------------------------------------------------


def open_store(location: str | None = None) -> Store:
    """The store at ``location``: an embedded one for a directory, a remote one for an http(s) URL."""
    from .store.opening import open_store as opened

    return opened(location)


def run(store, name: str, **params) -> list[dict[str, str]]:
    """The rows of a named query (``queries/NAME.rq``) with ``params`` bound."""
    return queries.run(store, name, **params)


def named_queries() -> tuple[dict, dict]:
    """The named queries (``queries/NAME.rq``) and the QC checks (``queries/checks/``), by name."""
    return queries.registry(), queries.checks()


def named_query(name: str):
    """One named query, a ``.rq`` file (a path ending in .rq or an existing file), or --
    with ``sparql`` -- the user's own text; a :class:`kb.store.queries.NamedQuery`."""
    from pathlib import Path

    if name.endswith(".rq") or Path(name).is_file():
        return queries.from_file(name)
    return queries.get(name)


def own_query(text: str):
    """The user's own SPARQL, with the shared prefixes declared before it."""
    return queries.adhoc(text)


def base_iri(base: str | None = None) -> str:
    """The base of the IRIs the KB mints: ``base``, else RULEKB_BASE_IRI, else the default."""
    from .rdf.iris import base_iri as of

    return of(base)


def editions(store) -> list[dict]:
    """The editions the KB holds, one row each (``rulekb editions``)."""
    return queries.editions(store)


def rule(store, edition: str, number: str) -> dict:
    """``rulekb rule EDITION NUMBER`` (DESIGN.md): the rule, its links and concepts (kb.rules)."""
    from .rules import rule as answer

    return answer(store, edition, number)


def built_base(store) -> str | None:
    """The base IRI the KB was built with (``{base}edition/{id}``), None for an empty KB."""
    rows = run(store, "kb-base")
    if not rows:
        return None
    iri, edition_id = rows[0]["edition"], rows[0]["id"]
    suffix = f"edition/{edition_id}"
    return iri[: -len(suffix)] if iri.endswith(suffix) else None


# -- a rule, its history, any KB resource ---------------------------------------------


def history(store, number: str, edition: str | None = None) -> list[dict]:
    """``rulekb history NUMBER``: the rule's text in every edition (DESIGN.md)."""
    from .lineage.history import history as of

    return of(store, number, edition)


def default_edition(store, language: str = "en") -> str:
    from .lineage.history import default_edition as default

    return default(store, language)


def history_periods(entries: list[dict]) -> list[dict]:
    """A history's entries folded into its wordings (runs of unchanged versions)."""
    from .lineage.history import periods

    return periods(entries)


def history_word_diff(old: str | None, new: str | None) -> list[tuple[str, str]]:
    """Two wordings of a rule word by word, ``[(op, words)]`` with op ``=``, ``-`` or ``+``
    (the one word diff, as the rule page marks it)."""
    from .lineage.history import word_diff

    return word_diff(old, new)


def lineage(store, edition: str, number: str) -> dict | None:
    from .lineage.history import lineage as of

    return of(store, edition, number)


def describe(store, iri: str, kind: str | None = None, base: str | None = None):
    """The triples describing a KB IRI (what ``/rule/...`` and friends serve as RDF)."""
    from .store.describe import describe as triples

    return triples(store, iri, kind, base)


# -- editions -------------------------------------------------------------------------


def edition(name: str, store=None, note=None):
    """An edition by id, alias or date from the KB, or by a source file, parsed; ``store``
    may be a callable; ``note`` hears how a name that is not an id was resolved."""
    from .rdf.stored_edition import load_edition

    return load_edition(name, store, note)


def stored_edition(store, edition_id: str):
    """An edition read back from the KB."""
    from .rdf.stored_edition import stored_edition as read

    return read(store, edition_id)


# -- questions --------------------------------------------------------------------------


def asker(store):
    """``define`` and ``ask`` over the store (:class:`kb.define.ask.Asker`; keep one per store)."""
    from .define.ask import Asker

    return Asker(store)


# -- comparisons ------------------------------------------------------------------------


def diff(older, newer, unchanged: bool = False) -> dict:
    """``rulekb diff``'s JSON: every rule paired with its successor, and the term changes."""
    from .compare.editions import diff_editions

    return diff_editions(older, newer, unchanged)


def diff_report(data: dict, older, newer):
    """The report of a ``diff`` JSON (rendered by :func:`kb.compare.report.render`)."""
    from .compare.editions import diff_report as report

    return report(data, older, newer)


def contradictions(old: str, new: str, store=None, reasoner: str | None = None, note=None) -> dict:
    """``rulekb contradictions``' JSON; ``store`` may be a callable; ``note`` as for :func:`edition`."""
    from .compare.editions import compare_editions

    return compare_editions(old, new, store, reasoner, note)


def cite_check(text: str, old, new, bare: bool = False):
    """Each rule citation of ``text`` (written against ``old``) with its number in ``new``."""
    from .compare.cite_check import check

    return check(text, old, new, bare)


def cite_summary(findings) -> dict[str, int]:
    """How many citations of each kind (current, renumbered, removed...) ``cite_check`` found."""
    from .compare.cite_check import summary

    return summary(findings)


# -- translation --------------------------------------------------------------------------


def translation(sources: list[str], us: str | None = None, base: str = "auto", store=None):
    """``(data, french, english)``: ``rulekb translation-report``'s JSON and the two editions."""
    from .translate.from_kb import translation_data

    return translation_data(sources, us, base, store)


def french_edition(sources: list[str], store=None):
    """The French edition named by ``sources``: one KB id, or files/directories parsed."""
    from .translate.from_kb import load_french

    return load_french(sources, store)


def newest_english(store) -> str:
    """The newest complete English edition of the KB (``--us`` when not given)."""
    from .translate.from_kb import default_us, english_rows

    return default_us(english_rows(store))


# the translators' files (XLIFF, TMX, TBX): term_pairs, termbase, translation_memory and
# translation_xliff of kb.translate.exchange.files, imported when first asked for (PEP 562): that
# module imports kb.translate and kb.align, a fifth of the start of every other command
_FILES = ("term_pairs", "termbase", "translation_memory", "translation_xliff")


def __getattr__(name: str):
    if name in _FILES:
        from .translate.exchange import files

        return getattr(files, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- building ---------------------------------------------------------------------------------


def build(sources: list[str], store, **options):
    """``rulekb build``: parse the sources and replace the store's content (:func:`kb.build.build`)."""
    from .build import build as run_build

    return run_build(sources, store, **options)


def export(store, edition: str | None, rdf_format: str) -> bytes:
    from .store.export import export as run_export

    return run_export(store, edition, rdf_format)


def publish(store, target) -> dict:
    """``rulekb publish DIR``: a read-only, versioned snapshot of the store's current build."""
    from .store.publish import publish as run_publish

    return run_publish(store, target)


def validate(store, editions: list[str] | None = None, all_graphs: bool = False) -> dict:
    from .store.validate import validate as run_validate

    return run_validate(store, editions, all_graphs)


def corpus_dir():
    """The real rules corpus (RULEKB_CORPUS, else ../shared/corpus), None when absent."""
    from .corpus import corpus_dir as where

    return where()
def search(store, query: str, edition: str | None = None, lang: str | None = None, all_editions: bool = False,
           limit: int = 10, offset: int = 0) -> dict:
    """``rulekb search`` (kb.search): ranked rules and glossary entries for a question,
    in one edition (default: the newest English one), a language's French texts,
    or every edition (one hit per lineage)."""
    from .search.engine import searcher_for

    if edition and edition != "all":
        if names_by_alias(edition):  # en/latest, en@2010-03-15: the id they name (one resolver)
            edition = resolve_edition(store, edition).edition
    return searcher_for(store).search(query, edition=edition, lang=lang, all_editions=all_editions,
                                      limit=limit, offset=offset)


def likely_rules(store, question: str, edition: str | None = None, lang: str | None = None, limit: int = 5) -> list[dict]:
    """The rules that most likely answer a question (``rulekb ask`` when it has no
    definitional answer): the ranked search's rule hits."""
    found = search(store, question, edition=edition, lang=lang, limit=limit + 5)
    return [hit for hit in found["results"] if hit["kind"] == "rule"][:limit]


def ask(store, question: str, edition: str | None = None) -> dict:
    """``rulekb ask``: the definitional answer (kb.define.ask); when there is none, it says
    so and gives the rules that most likely answer the question (``"answer": null``,
    ``"rules"`` from the ranked search, each with why it ranked there)."""
    from .errors import KBError

    data = asker(store).ask(question, edition=edition)
    if data.get("answer") is not None:
        return data
    try:
        lang = "fr" if data.get("language") == "fr" else "en"
        found = search(store, question, edition=edition, lang=None if edition else lang, limit=10)
    except KBError as exc:  # no index, or nothing searchable in the question: say so beside the unknown
        data["search"] = str(exc)
        return data
    likely = [hit for hit in found["results"] if hit["kind"] == "rule"][:5]
    data.update({k: found[k] for k in ("cards", "unknown_cards") if k in found})  # the cards named, Oracle text
    if found["understood"].get("cards_note"):  # why a bracketed name is no card (French names the file lacks)
        data["cards_note"] = found["understood"]["cards_note"]
    data["rules"] = [{"edition": hit["edition"], "rule": hit["rule"], "text": hit["text"], "score": hit["score"],
                      "why": hit["why"], "iri": hit["iri"]} for hit in likely]
    data["likely"] = bool(likely)
    return data
from .cards.service import card, card_by_slug, cards_governed_by_rule, cards_governed_count  # noqa: E402,F401

# -- rules over time (kb.timeline) ------------------------------------------------

from .timeline.service import (names_by_alias, resolve_edition, rule_as_of, rule_in_force,  # noqa: E402,F401
                               rule_wordings, rules_changed_between, rules_changed_page, timeline)


# -- consistency inside one edition (kb.consistency) ---------------------------


def consistency(store, edition: str, kinds=None) -> dict:
    """``rulekb consistency EDITION``: where the edition disagrees with itself, as built."""
    from .consistency import service

    return service.stored(store, edition, kinds)


def consistency_all(store, kinds=None) -> list[dict]:
    from .consistency import service

    return service.stored_all(store, kinds)


def consistency_of_file(path: str, kinds=None, reasoner: str | None = "owlrl") -> dict:
    """A draft edition's source file checked now (nothing stored)."""
    from .consistency import service

    return service.of_edition_file(path, kinds, reasoner)


def rule_consistency(store, edition: str, number: str) -> list[dict]:
    from .consistency import service

    return service.of_rule(store, edition, number)
def newer_editions(location: str | None, page: str | None = None) -> dict:
    """``rulekb fetch --check``: does the official rules page list an English edition
    newer than the KB's? (ingest.fetch.check_newer against the store's editions)."""
    from rulekb.ingest.fetch import check_newer

    from .update import kb_dates

    store = open_store(location)
    return check_newer(kb_dates(editions(store)), page)


def add_edition(source: str, location: str | None, reasoner: str = "auto", reporter=None, replace: bool = False):
    """``rulekb build --add SOURCE [--replace]``: one edition into the built KB -- appended
    (kb.add_edition), or inserted before a newer one / put in place of a re-publication (kb.update)."""
    from .errors import BuildError
    from .update import add_or_insert

    store = open_store(location)
    if store.local_root is None:
        raise BuildError("--add works on an embedded store (a directory), not a SPARQL endpoint")
    return add_or_insert(source, store, replace=replace, reasoner=reasoner, reporter=reporter)


def update_kb(location: str | None, page: str | None = None, dry_run: bool = False, cache: str | None = None,
              reasoner: str = "auto", reporter=None):
    """``rulekb update``: the newer editions the rules page lists, added in date order (kb.update)."""
    from .update import update

    return update(open_store(location), page, dry_run=dry_run, cache=cache, reasoner=reasoner, reporter=reporter)


# -- what the front-ends also need (each one line over its package) -------------------------


def searcher(store):
    """The store's ranked search (:class:`kb.search.engine.Searcher`), opened once per build."""
    from .search.engine import searcher_for

    return searcher_for(store)


def language_name(code: str) -> str:
    """A language as a page or a terminal names it ("fr" -> "French")."""
    from .search.analysis import LANGUAGE_NAMES

    return LANGUAGE_NAMES.get(code, code)


def search_weights() -> dict:
    """The fused ranking's weights (:mod:`kb.search.rank`), as ``rulekb bench search`` reports them."""
    from .search.rank import weights

    return weights()


def snippet_segments(snippet: str) -> list[tuple[str, bool]]:
    """A search snippet's pieces, each marked or not (the words that matched)."""
    from .search.snippets import segments

    return segments(snippet)


def is_heading_number(number: str) -> bool:
    """A section (``601``) or part (``6``) number where a rule number is expected."""
    from .sections import is_heading_number as heading

    return heading(number)


def rule_in_force_from(store, resolution, number: str, wordings) -> dict:
    """:func:`rule_in_force` from the rule's wordings already read (the rule page has them)."""
    from .timeline import answers

    return answers.in_force(store, resolution, number, found=wordings)


def change_counts(store) -> dict:
    """What each edition changed, counted by kind (the timelines and the editions feed)."""
    from .timeline import effects

    return effects.change_counts(store)


def edition_effects(store, edition: str) -> dict:
    """What one edition changed: added, removed, renumbered, reworded, meaning changes."""
    from .timeline import effects

    return effects.edition_effects(store, edition)


def glossary_definition_coverage(editions) -> dict:
    """The share of edition x glossary term given a defining rule (``rulekb bench glossary-definitions``)."""
    from .define.defining import coverage

    return coverage(editions)


def footprint(store, top: int = 20) -> dict:
    """What a store holds: quads per graph and predicate, bytes, bytes per quad."""
    from .footprint import measure

    return measure(store, top=top)


def same_answers(old, new, old_queries: dict | None = None, names: list[str] | None = None, repeat: int = 1) -> dict:
    """Every named query and QC check (``names``: those) run on two stores, rows compared
    (``old_queries``: ask the old store with these, :func:`queries_in`); ``repeat`` > 1 times them too."""
    from .footprint import compare_answers

    return compare_answers(old, new, names=names, old_queries=old_queries, repeat=repeat)


def queries_in(directory) -> dict:
    """The named queries of another ``queries/`` directory, by name."""
    from .footprint import queries_in as read

    return read(directory)


def page_store(store, edition: str, number: str, use: bool = True):
    """The store a rule page of (edition, number) reads: the build's page data answers the
    queries it holds (kb.pages), the store the rest; ``store`` itself when there is none."""
    from .pages import paged

    return paged(store, edition, number, use)


def longest_histories(store, limit: int) -> list[tuple[str, str]]:
    """(edition, number) of a rule of each of the ``limit`` lineages whose wordings hold the
    most text, from the build's page data (kb.pages); none without it."""
    from .pages import for_store

    data = for_store(store)
    return data.longest_histories(limit) if data is not None else []


# -- the dense arm of search (kb.search.dense) ----------------------------------------------

def embed(store, action: str = "now", max_new: int | None = None, say=None):
    """``rulekb build --embed now|background|status``, and the end of ``rulekb build``
    (``after-build``): the dense arm of the current index completed, started or described
    (:func:`kb.search.dense_build.for_store`)."""
    from .search.dense_build import for_store

    return for_store(store, action, max_new=max_new, say=say)
