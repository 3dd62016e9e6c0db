"""Comparing two editions read from the KB (by id) or parsed from source files:
the rule diff and its report (``rulekb diff``, the web's ``/diff``) and the
contradictions of their definitions (``rulekb contradictions``, ``/contradictions``).
Front-ends reach these through :mod:`kb.service`.

``store`` is a store or a callable giving it (opened only when an id needs it).
"""

from __future__ import annotations


def diff_editions(older, newer, unchanged: bool = False) -> dict:
    """The ``rulekb diff`` JSON of two editions: the rule alignment and the term changes."""
    from ..lineage.cache import aligned
    from . import term_changes

    data = aligned(older, newer).to_dict(unchanged=unchanged)  # (kb.align's, read back when aligned before)
    data["term_changes"] = [change.to_dict() for change in term_changes(older, newer)]
    return data


def compare_editions(old: str, new: str, store=None, reasoner: str | None = None, note=None) -> dict:
    """The ``rulekb contradictions`` JSON: ``{"old", "new", "items", "term_changes", "reasoner"}``."""
    from ..errors import KBError
    from ..rdf.stored_edition import load_edition
    from . import contradictions as find, term_changes, to_json

    opener = store if callable(store) else (lambda: store)
    old_edition = load_edition(old, opener, note)
    new_edition = old_edition if new == old else load_edition(new, opener, note)
    if old_edition.id == new_edition.id and old_edition.rules == new_edition.rules:
        findings, changes = [], []  # the same edition twice: nothing to compare
    else:
        try:
            findings = find(old_edition, new_edition, reasoner=reasoner)
        except Exception as exc:
            from ..reason.backends import JavaMissingError, ReasonerError

            if isinstance(exc, JavaMissingError):
                raise KBError(f"--reasoner hermit needs Java 11+ ({exc}); --reasoner owlrl needs none") from None
            if isinstance(exc, ReasonerError):
                raise KBError(f"the reasoner failed: {exc}") from None
            raise
        changes = term_changes(old_edition, new_edition)
    data = to_json(findings, old_edition.id, new_edition.id)
    data["term_changes"] = [change.to_dict() for change in changes]
    data["reasoner"] = reasoner
    return data


def diff_report(data: dict, older, newer):
    """The report (:mod:`kb.compare.report`) of a ``diff_editions`` JSON: one entry per change."""
    from .report import Entry, Pane, Report, term_change_rows

    old_rules = {r.number: r.text for r in older.rules}
    new_rules = {r.number: r.text for r in newer.rules}
    entries = []
    for change in data["changes"]:
        old_pane = Pane(data["old"], change["old"], old_rules.get(change["old"], "")) if change["old"] else None
        new_pane = Pane(data["new"], change["new"], new_rules.get(change["new"], "")) if change["new"] else None
        title = f"{change['kind']}: {change['old'] or '—'} → {change['new'] or '—'}"
        entries.append(Entry(title, old_pane, new_pane, (), change["kind"]))
    counts = ", ".join(f"{n} {kind}" for kind, n in data["counts"].items() if n)
    tables = ()
    if data["term_changes"]:
        tables = (("Term changes", ("old term", "new term", "rules", "examples"), term_change_rows(data["term_changes"])),)
    return Report(f"{data['old']} → {data['new']}", (counts,), tuple(entries), tables)
