"""The questions the CLI and the web ask about consistency: an edition's findings read
back from the KB (what the build found), or a draft edition checked from its file."""

from __future__ import annotations

import json

from rulekb.kb.store import queries
from rulekb.kb.errors import KBError, NotFound

from . import KINDS, check, notes, to_json
from .model import Finding


def _run(store, name: str, **params) -> list[dict]:
    query = queries.get(name)
    return store.select(query.text, query.bindings(params))


def _kinds(kinds) -> set[str] | None:
    if not kinds:
        return None
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        raise KBError(f"unknown kind {', '.join(unknown)} (choose from {', '.join(KINDS)})")
    return set(kinds)


def stored(store, edition_id: str, kinds=None) -> dict:
    """``{"edition", "findings", "notes"}`` of an edition of the KB, as the build found them."""
    wanted = _kinds(kinds)
    if not _run(store, "edition-exists", edition=edition_id):
        raise NotFound(f"no edition {edition_id!r} in the knowledge base (rulekb editions lists them)")
    rows = _run(store, "edition-consistency", edition=edition_id)
    findings = []
    for row in rows:
        item = json.loads(row["data"])
        item["iri"] = row["finding"]
        findings.append(item)
    findings.sort(key=lambda item: Finding.from_dict(item).sort_key())
    if wanted:
        findings = [f for f in findings if f["kind"] in wanted]
    found_notes = [row["note"] for row in _run(store, "edition-consistency-notes", edition=edition_id)]
    return {"edition": edition_id, "findings": findings, "notes": found_notes}


def stored_all(store, kinds=None) -> list[dict]:
    from rulekb.kb.store.queries import editions  # the store's named queries, not the front-ends' facade (kb.service imports this module)

    return [stored(store, e["edition"], kinds) for e in editions(store)]


def of_rule(store, edition_id: str, number: str) -> list[dict]:
    """The findings of an edition citing one rule or section (for its page)."""
    return [{"iri": r["finding"], "kind": r["kind"], "severity": r["severity"], "places": r["places"],
             "detail": r["detail"], "why": r.get("why", "")}
            for r in _run(store, "rule-consistency", edition=edition_id, number=number)]


def of_edition_file(path: str, kinds=None, reasoner: str | None = "owlrl") -> dict:
    """A draft edition checked from its source file: every kind, the reasoner's verdict
    with ``reasoner`` ("owlrl", "hermit"; None: without)."""
    from rulekb.kb.rdf.stored_edition import load_edition

    wanted = _kinds(kinds)
    edition = load_edition(path)
    from rulekb.kb.define import edition_statements

    statements = edition_statements(edition)
    result = None
    if reasoner:
        result = _reason(edition, statements, reasoner)
    return to_json(edition.id, check(edition, statements, result, wanted), notes(edition))


def _reason(edition, statements, reasoner: str):
    from rulekb.kb.reason import infer
    from rulekb.kb.rdf.lexicon import ontology_labels
    from rulekb.kb.reason.backends import JavaMissingError, ReasonerError

    terms = {key: value["denotes"][0] for key, value in ontology_labels().items() if value.get("denotes")}
    try:
        return infer.reason(edition.id, statements, terms, reasoner=reasoner, crosscheck=False)
    except JavaMissingError as exc:
        raise KBError(f"--reasoner hermit needs Java 11+ ({exc}); --reasoner owlrl needs none") from None
    except ReasonerError as exc:
        raise KBError(f"the reasoner failed: {exc}") from None
