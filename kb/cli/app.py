"""The typer app and the options every command shares: the output format, the store
(opened lazily, through :mod:`kb.service`), how an edition name is read.

Only typer is imported here (and by every command module at its top): the domain
code is imported inside the commands, so ``rulekb search`` or ``--help`` from a cold
start loads only what it runs."""

from __future__ import annotations

import enum

import typer

from . import coercion

coercion.install()  # plain option values without pydantic (cold start)

app = typer.Typer(
    name="rulekb",
    help="Magic: The Gathering Comprehensive Rules, every edition, English and French: parse, build, query.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class Format(str, enum.Enum):
    text = "text"
    json = "json"


FormatOption = typer.Option(
    Format.text, "--format", "-f", help="Output: human-readable text, or JSON on stdout."
)

StoreOption = typer.Option(
    None, "--store", help="Store directory or SPARQL endpoint URL (default: RULEKB_STORE, else ~/.local/share/rulekb/store)."
)
BaseOption = typer.Option(None, "--base-iri", help="Base of the IRIs the KB mints (default: RULEKB_BASE_IRI, else http://localhost:8000/).")
LangOption = typer.Option("en", "--lang", help="Language of the editions (en | fr).")
CorpusOption = typer.Option(None, "--corpus", help="Corpus root (default: RULEKB_CORPUS or ../shared/corpus).")


def RepeatOption(default: int, help: str = "Runs per query; medians are over runs."):  # noqa: N802  (an option, like the others)
    """A bench's ``--repeat``: how many timed runs its medians are over."""
    return typer.Option(default, "--repeat", min=1, help=help)


def _store(location: str | None):
    from ..service import open_store

    return open_store(location)


class LazyStore:
    """The store at ``location``, opened on first call and then reused: a command given
    only source files never opens it, one given two edition ids opens it once."""

    def __init__(self, location: str | None):
        self.location, self.store = location, None

    def __call__(self):
        if self.store is None:
            self.store = _store(self.location)
        return self.store


def note(resolution) -> None:
    """Say which edition a name that was not an id resolved to, and why (stderr)."""
    from .output import stderr

    if resolution.how != "id":
        stderr.print(f"rulekb: {resolution.asked} -> {resolution.reason}", markup=False, highlight=False)


def edition_name(store, name: str | None, as_of: str | None = None, *, default_none: bool = False):
    """The Resolution of ``name``/``as_of`` (None when neither is given and ``default_none``):
    ids, ``en/latest``, ``en@2010-03-15`` or ``--as-of``, resolved by :mod:`kb.timeline.editions`;
    a name that is not an id is said on stderr with the edition that answered and why."""
    from .. import service

    if default_none and not name and as_of is None:
        return None
    resolution = service.resolve_edition(store, name, as_of)
    note(resolution)
    return resolution
