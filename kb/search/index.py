"""The on-disk index: a tantivy index and ``meta.json`` in one directory.

Fields (``_en`` / ``_fr``: the language's analyzer, :mod:`.analysis`)::

    text_*      rule text, or a glossary entry's definition (stored: snippets)
    examples_*  the rule's examples
    titles_*    its section and part titles; a glossary entry's term
    parent_*    the parent rule's text when it names the subject ("Trample")
    kind lang number section lineage group     raw, stored
    heading     a heading rule's text ("Trample"): stored, found through titles_*
    editions    raw, one value per edition printing this version (the filter)
    defines defines_sub mentions               concept keys (raw): the KB's links
    refs        a glossary entry's rules (stored)

``meta.json`` holds what reading a question needs without opening the store:
the editions (language, date, partial), the concepts' labels, the base IRI.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import tantivy

from . import analysis
from .documents import Doc

META = "meta.json"
FORMAT = 2  # bumped when the schema changes: an older index is rebuilt, not misread
TEXT_FIELDS = ("text", "examples", "titles", "parent")
RAW_FIELDS = ("kind", "lang", "number", "section", "lineage", "group", "editions", "heading",
              "defines", "defines_sub", "mentions", "refs", "key")


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    for name in TEXT_FIELDS:
        for lang in analysis.LANGS:
            builder.add_text_field(f"{name}_{lang}", stored=name != "parent", tokenizer_name=f"text_{lang}")
    for name in RAW_FIELDS:
        builder.add_text_field(name, stored=True, tokenizer_name="raw", index_option="basic")
    return builder.build()


def write(directory: Path, docs, meta: dict) -> dict:
    """Write the index of ``docs`` into the new ``directory``; return its statistics."""
    started, cpu = time.perf_counter(), time.process_time()
    directory = Path(directory)
    (directory / "tantivy").mkdir(parents=True, exist_ok=False)
    index = tantivy.Index(schema(), path=str(directory / "tantivy"), reuse=False)
    analysis.register(index)
    # one thread: documents keep the order they are added in, so documents of equal score (a
    # concept's mentions, scored alike) rank in the same order after every build of the same KB;
    # with several threads, which segment a document landed in, and so ties, changed per build
    writer = index.writer(heap_size=200_000_000, num_threads=1)
    count = rules = 0
    for doc in docs:
        writer.add_document(_document(doc))
        count += 1
        rules += doc.kind == "rule"
    writer.commit()
    writer.wait_merging_threads()
    stats = {"documents": count, "rule_versions": rules, "glossary_versions": count - rules,
             "seconds": round(time.perf_counter() - started, 2),
             "cpu_seconds": round(time.process_time() - cpu, 2)}  # every thread's: what load does not inflate
    stats["bytes"] = sum(f.stat().st_size for f in directory.rglob("*") if f.is_file())
    (directory / META).write_text(json.dumps({"format": FORMAT, **meta, "stats": stats, "keyed": True},
                                             ensure_ascii=False), encoding="utf-8")
    return stats


def can_update(directory: Path) -> bool:
    """Whether the index in ``directory`` knows its documents' keys (written by this rulekb)."""
    try:
        meta = json.loads((Path(directory) / META).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return meta.get("format") == FORMAT and bool(meta.get("keyed"))


def update(old: Path, new: Path, docs, edition: str, meta: dict) -> dict:
    """A copy of the index in ``old``, in ``new``, with the documents of one more edition.

    ``docs`` are the documents of the new edition (and of its predecessor, which
    :func:`kb.search.documents.documents` needs to see to give a continued version its
    key): those that print ``edition``. A version already in the index (the same key) gets
    the edition added to its editions, and the concepts it defines added to its own; a new
    version is added. ``meta`` replaces the index's meta (editions, concepts)."""
    import shutil

    import tantivy

    started, cpu = time.perf_counter(), time.process_time()
    old, new = Path(old), Path(new)
    # not the dense arm (kb.search.dense): the new index gets its own, written from the cache
    shutil.copytree(old, new, ignore=shutil.ignore_patterns("dense", "dense-*", ".dense-*", "dense.*"))
    index = tantivy.Index.open(str(new / "tantivy"))
    analysis.register(index)
    index.reload()
    searcher = index.searcher()
    writer = index.writer(heap_size=50_000_000, num_threads=1)
    added = merged = 0
    for doc in docs:
        if edition not in doc.editions:
            continue
        hits = searcher.search(tantivy.Query.term_query(index.schema, "key", doc.key), 2).hits
        doc.editions = [edition]
        if hits:
            stored = searcher.doc(hits[0][1])
            doc.editions = [*stored.get_all("editions"), edition]
            doc.defines |= set(stored.get_all("defines"))
            doc.defines_sub |= set(stored.get_all("defines_sub"))
            writer.delete_documents_by_term("key", doc.key)
            merged += 1
        else:
            added += 1
        writer.add_document(_document(doc))
    writer.commit()
    writer.wait_merging_threads()
    index.reload()
    count = index.searcher().num_docs
    rules = index.searcher().search(tantivy.Query.term_query(index.schema, "kind", "rule"), 1, count=True).count
    stats = {"documents": count, "rule_versions": rules, "glossary_versions": count - rules,
             "added": added, "extended": merged, "seconds": round(time.perf_counter() - started, 2),
             "cpu_seconds": round(time.process_time() - cpu, 2)}
    stats["bytes"] = sum(f.stat().st_size for f in new.rglob("*") if f.is_file())
    (new / META).write_text(json.dumps({"format": FORMAT, **meta, "stats": stats, "keyed": True},
                                       ensure_ascii=False), encoding="utf-8")
    return stats


def _document(doc: Doc) -> tantivy.Document:
    d = tantivy.Document()
    lang = doc.lang
    if doc.heading:  # a title: found as one (titles_*), shown from the raw field
        d.add_text("heading", doc.text)
    else:
        d.add_text(f"text_{lang}", doc.text)
    if doc.examples:
        d.add_text(f"examples_{lang}", doc.examples)
    titles = " ".join(t for t in ((doc.text if doc.heading else ""), doc.titles) if t)
    if titles:
        d.add_text(f"titles_{lang}", titles)
    if doc.parent:
        d.add_text(f"parent_{lang}", doc.parent)
    for name in ("kind", "lang", "number", "section", "lineage", "group", "key"):
        value = getattr(doc, name)
        if value:
            d.add_text(name, value)
    for name in ("editions", "defines", "defines_sub", "mentions", "refs"):
        for value in sorted(getattr(doc, name)) if name != "editions" and name != "refs" else getattr(doc, name):
            d.add_text(name, value)
    return d


def open_index(directory: Path) -> tuple[tantivy.Index, dict]:
    """The index and its meta, read-only; OSError/ValueError when absent or not ours."""
    directory = Path(directory)
    meta = json.loads((directory / META).read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"search index format {meta.get('format')} (this rulekb reads {FORMAT})")
    index = tantivy.Index.open(str(directory / "tantivy"))
    analysis.register(index)
    return index, meta
