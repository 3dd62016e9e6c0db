"""An edition inserted into a built KB by difference: a full build's answer, without reloading the store.

``rulekb build --add`` of an edition older than the KB's newest (a gap of an archive filled)
runs the build of the KB's recorded sources with the file (:func:`kb.update.rebuild_with`):
every stage up to the load is a full build's, with its caches (the parse, each aligned pair,
each pair's changes of meaning, the reasoning by axiom set, the consistency by edition), so
the lineages are chained P -> X -> N, and the changes, changes of meaning, wordings and
translations are those of a full build of the same texts. What it does not do is write every
quad again (the serialisation, the bulk load and the compaction of four million quads: most of
a warm build). :func:`writer` is the build's writing step instead:

- the store is copied (Oxigraph's backup: hard links) and the copy changed, then swapped in
  with the search index (:meth:`kb.store.embedded.EmbeddedStore.update`);
- the inserted edition's part (its graph, its statements and what the reasoner inferred from
  them) is added;
- every graph the editions share (graph/lineage: lineages, changes, wordings, their mentions,
  changes of meaning; graph/translation; graph/consistency; graph/cards; graph/concepts) is
  written by the build's own part functions, compared with what the KB holds line by line
  (N-Quads: these graphs have no blank nodes), and only the difference removed and added;
- the other editions' parts are not written: each is a function of its own text, its own
  statements and reasoning, and the concepts (their keys and labels: the mention matcher, the
  term keys), which are compared first -- when the inserted edition's glossary changes the
  concepts, or the ontology graph is not the one this code writes (a KB of other code), the
  build writes every part as usual (``None``: the caller's bulk load);
- the search index is the build's, written beside it (kb.build.index), and the page data
  written whole after the swap, as a build writes them.

The test builds the same texts both ways and compares every quad (tests/test_update.py).
"""

from __future__ import annotations

from collections.abc import Callable

import pyoxigraph as ox

SHARED = ("lineages", "wordings", "wording mentions", "changes of meaning", "translations", "consistency", "cards")


class Spliced:
    """What the splice changed, for the build's report."""

    def __init__(self):
        self.added = 0
        self.removed = 0
        self.why_not = ""


def _graph_of(line: bytes) -> bytes:
    """The graph IRI of one N-Quads line (``s p o g .``: the term before the final dot)."""
    return line.rstrip().rsplit(b" ", 2)[-2]


def _lines(data: bytes) -> list[bytes]:
    return [line for line in data.split(b"\n") if line.strip()]


def concept_difference(before: dict, after: dict) -> str | None:
    """How the concepts every other edition's part depends on differ (None: they do not):
    their keys, each one's labels and the terms it denotes, and which concept has a label
    or a key that two share (the mention matcher and the key index let the first concept in
    the build's order have it; the order of the others matters to nothing an edition's part
    holds, and an inserted glossary may move a concept it defines earlier)."""
    from ..rdf.concepts import KeyIndex, Matcher

    if before.keys() != after.keys():
        added = [key for key in after if key not in before]
        return f"concept {added[0]} is new" if added else "a concept is gone"
    for key, c in after.items():
        old = before[key]
        if old.labels != c.labels or old.denotes != c.denotes:
            return f"concept {key}'s labels change"

    languages = {lang for c in after.values() for lang in c.labels}
    if any(Matcher(before, lang).index != Matcher(after, lang).index for lang in languages) \
            or KeyIndex(before).keys != KeyIndex(after).keys:
        return "a label two concepts share goes to another one"
    return None


def concepts_without(editions: list, inserted: str) -> dict:
    """The concepts as the build of the KB without ``inserted`` made them (kb.build's steps: the
    glossaries, the ontology's labels, the French sentence definitions, then the concepts the
    editions' statements name, in edition order; the statements are the build's, read back
    from kb.build.definitions' memory of each rule text's)."""
    from ..rdf import concepts as concept_layer
    from ..rdf.lexicon import ontology_labels
    from .definitions import statements_of

    rest = [e for e in editions if e.id != inserted]
    concepts = concept_layer.collect(rest)
    concept_layer.add_ontology_labels(concepts, ontology_labels())
    concept_layer.add_sentence_definitions(concepts, rest)
    keys = concept_layer.KeyIndex(concepts)
    for edition in rest:
        statements_of(edition, keys)
    return concepts


def writer(inserted: str, done: Spliced) -> Callable:
    """The build's writing step for ``inserted``, an edition the KB lacks (see the module's
    docstring): ``write(store, parts, editions, concepts, indexing, stages) -> quads added``,
    or None when it must be a full load (``done.why_not`` says why)."""

    def write(store, parts, editions, concepts, indexing, stages):
        from ..parallel import fork_map
        from .sources import workers

        if not store.exists() or store.data_dir() is None:
            done.why_not = "no KB to insert into"
            return None
        differs = concept_difference(concepts_without(editions, inserted), concepts)
        if differs is not None:
            done.why_not = f"{inserted}'s glossary changes the concepts every edition's mentions are matched with ({differs})"
            return None
        named = dict(parts)
        wanted = ["ontology and concepts", f"load {inserted}", *(name for name in SHARED if name in named)]
        if f"load {inserted}" not in named:
            done.why_not = f"{inserted} is not among the build's editions"
            return None
        with stages.stage("splice", total=len(wanted)) as stage:
            made: dict[str, bytes] = {}
            for name, (data, _, _) in zip(wanted, fork_map(lambda i: _part_bytes(named[wanted[i]]), len(wanted),
                                                           workers())):
                made[name] = data
                stage.advance(f"splice {name}")
            fresh: dict[bytes, set[bytes]] = {}  # graph -> its lines, as the build writes them
            for name in wanted[:1] + wanted[2:]:
                for line in _lines(made[name]):
                    fresh.setdefault(_graph_of(line), set()).add(line)
            for graph, lines in fresh.items():
                if not graph.endswith(b"/graph/ontology>"):
                    fresh[graph] = _as_stored(lines)
            raw = store.store()
            ontology = next((g for g in fresh if g.endswith(b"/graph/ontology>")), None)
            if ontology is None or not _same_without_blanks(raw, ontology, fresh.pop(ontology)):
                done.why_not = "the KB's ontology graph is not the one this code writes (a KB of other code)"
                return None

        def change(copy: ox.Store) -> None:
            for graph, lines in fresh.items():
                stage.advance(f"load {graph.decode('utf-8')[1:-1].rsplit('/', 1)[-1]}", step=0)
                held = set(_lines(_graph_nquads(copy, graph)))
                gone, new = held - lines, lines - held
                for quad in ox.parse(b"\n".join(gone), format=ox.RdfFormat.N_QUADS) if gone else ():
                    copy.remove(quad)
                if new:
                    copy.extend(ox.parse(b"\n".join(new) + b"\n", format=ox.RdfFormat.N_QUADS))
                done.removed += len(gone)
                done.added += len(new)
            own = list(ox.parse(made[f"load {inserted}"], format=ox.RdfFormat.N_QUADS))
            copy.extend(own)
            done.added += len(own)

        def index(old, partner) -> None:  # the build's index, written beside it from the align stage on
            with stages.stage("index", total=1) as waiting:
                indexing.beside(partner)()
                waiting.advance("index")

        with stages.stage("load", total=1) as stage:
            store.update(change, index=index)
            stage.advance(f"load {inserted}")
        return done.added

    return write


def _part_bytes(part) -> tuple[bytes, int, int]:
    from .load import _part_nquads

    return _part_nquads(part)


_TYPED = b"^^<http://www.w3.org/2001/XMLSchema#"


def _as_stored(lines: set[bytes]) -> set[bytes]:
    """``lines`` as the store gives them back: Oxigraph keeps a typed literal's value, not its
    lexical form (``"0.9500"^^xsd:decimal`` comes back ``"0.95"``), so those lines go through a
    store in memory; the others (most) are compared as they are."""
    typed = {line for line in lines if _TYPED in line and b"XMLSchema#string>" not in line}
    if not typed:
        return lines
    memory = ox.Store()
    memory.extend(ox.parse(b"\n".join(typed) + b"\n", format=ox.RdfFormat.N_QUADS))
    return (lines - typed) | set(_lines(_graph_nquads_all(memory)))


def _graph_nquads_all(store: ox.Store) -> bytes:
    return ox.serialize(store.quads_for_pattern(None, None, None, None), format=ox.RdfFormat.N_QUADS) or b""


def _graph_nquads(store: ox.Store, graph: bytes) -> bytes:
    node = ox.NamedNode(graph.decode("utf-8")[1:-1])
    return ox.serialize(store.quads_for_pattern(None, None, None, node), format=ox.RdfFormat.N_QUADS) or b""


def _same_without_blanks(store: ox.Store, graph: bytes, lines: set[bytes]) -> bool:
    """The graph's lines that name no blank node are these, and it has as many lines."""
    held = _lines(_graph_nquads(store, graph))
    plain = {line for line in lines if b"_:" not in line}
    return len(held) == len(lines) and {line for line in held if b"_:" not in line} == plain
