"""The OpenAPI 3 document of the JSON API (``/api/openapi.json``), in one place."""

from __future__ import annotations

from .context import WebContext

_ERROR = {"description": "an error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _path_param(name: str, example: str, description: str) -> dict:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string"}, "example": example}


def _query_param(name: str, example: str, description: str, required: bool = False) -> dict:
    return {"name": name, "in": "query", "required": required, "description": description,
            "schema": {"type": "string"}, "example": example}


def _get(summary: str, description: str, parameters: list, schema: dict) -> dict:
    return {"get": {
        "summary": summary,
        "description": description,
        "parameters": parameters,
        "responses": {
            "200": {"description": "OK", "content": {"application/json": {"schema": schema}}},
            "400": _ERROR,
            "404": _ERROR,
        },
    }}


_OBJECT = {"type": "object"}
_LANG = _path_param("lang", "en", "the edition's language: en or fr")
_DATE = _path_param("date", "2026-01-16", "the edition's date (or undated-NAME), the second half of its id")


def document(ctx: WebContext) -> dict:
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "rulekb JSON API",
            "version": "1",
            "description": "The Magic: The Gathering Comprehensive Rules, every edition in English and French: "
                           "the JSON shapes of the rulekb command line. RDF of every resource is at its IRI "
                           "(content negotiation), SPARQL at /sparql.",
        },
        "servers": [{"url": ctx.base.rstrip("/")}],
        "paths": {
            "/api/editions": _get(
                "Every edition", "As `rulekb editions --format json`.", [],
                {"type": "array", "items": {"$ref": "#/components/schemas/EditionSummary"}}),
            "/api/edition/{lang}/{date}": _get(
                "An edition", "Its title, language, date, sources and table of contents (parts and sections).",
                [_LANG, _DATE], {"$ref": "#/components/schemas/Edition"}),
            "/api/rule/{lang}/{date}/{number}": _get(
                "A rule", "As `rulekb rule EDITION NUMBER --format json`: text, examples, references "
                          "(dangling ones apart), referenced_by, concepts, lineage.",
                [_LANG, _DATE, _path_param("number", "702.19b", "the rule number")],
                {"$ref": "#/components/schemas/Rule"}),
            "/api/history/{number}": _get(
                "A rule through the editions", "As `rulekb history`: every version, oldest first, even renumbered.",
                [_path_param("number", "111.2", "the rule number in the edition"),
                 _query_param("edition", "en/2026-01-16", "edition id (default: the newest English one)")],
                {"type": "array", "items": _OBJECT}),
            "/api/concept/{slug}": _get(
                "A concept", "As `rulekb define`: labels in English and French, the glossary entry and "
                             "defining rules, statements, broader / narrower / related concepts.",
                [_path_param("slug", "owner", "the concept's name in its IRI (or any label)")], _OBJECT),
            "/api/search": _get(
                "Search the rules", "As `rulekb search`: rules and glossary entries ranked for a question "
                                    "(BM25 fused with the KB's concepts, defining rules and rule numbers), "
                                    "each with a marked snippet and why it ranked there.",
                [_query_param("q", "summoning sickness", "words, a question or a rule number", required=True),
                 _query_param("edition", "en/2026-01-16", "edition id, or all: every edition, one hit per lineage "
                                                          "(default: the newest English one)"),
                 _query_param("lang", "en", "en or fr (fr: the French texts)"),
                 _query_param("limit", "10", "results, 1-100"),
                 _query_param("offset", "0", "results to skip (the next page)")],
                {"$ref": "#/components/schemas/SearchResults"}),
            # rules over time (kb.web.timeline_pages)
            "/api/effects/{lang}/{date}": _get(
                "What an edition changed", "As `/effects/EDITION.json`: the rules it added, removed, renumbered "
                                           "and reworded, its changes of meaning, the counts, and which edition "
                                           "answered (`resolved`; the date part also takes `latest` or "
                                           "`en@2010-03-15` style names).",
                [_LANG, _path_param("date", "2009-10-01", "the edition's date (the second half of its id), or latest")],
                {"$ref": "#/components/schemas/Effects"}),
            "/api/as-of/{number}": _get(
                "A rule as in force on a date", "As `rulekb as-of NUMBER DATE --format json`: the wording in "
                                                "force (number as printed then), the edition in force and why, "
                                                "and the wording that superseded it.",
                [_path_param("number", "111.2", "the rule number as printed on that date"),
                 _query_param("date", "2010-03-15", "an ISO date", required=True),
                 _query_param("lang", "en", "en or fr (default en)")],
                {"$ref": "#/components/schemas/AsOf"}),
            "/api/changes": _get(
                "Rules changed between two dates", "As `rulekb changes FROM TO --format json`: every wording "
                                                   "that came into force after FROM and on or before TO, and "
                                                   "every rule removed or merged then, oldest first.",
                [_query_param("from", "2009-06-01", "ISO date, exclusive", required=True),
                 _query_param("to", "2009-12-31", "ISO date, inclusive", required=True),
                 _query_param("lang", "en", "a language (default: every language)"),
                 _query_param("limit", "500", "rows of a page, 1-5000 (default 500): a page holds whole "
                                               "dates, so one date's changes may exceed it; the window's "
                                               "total is in X-Total-Count, the next page in the Link header "
                                               "(rel=next)"),
                 _query_param("after", "2009-07-11", "the next page: the date the Link header gives")],
                {"type": "array", "items": {"$ref": "#/components/schemas/Change"}}),
        },
        "components": {"schemas": {
            "Error": {"type": "object", "required": ["error"], "properties": {"error": {
                "type": "object", "properties": {"status": {"type": "integer"}, "message": {"type": "string"}}}}},
            "EditionSummary": {"type": "object", "properties": {
                "edition": {"type": "string"}, "language": {"type": "string"},
                "effective_date": {"type": "string", "nullable": True}, "partial": {"type": "boolean"},
                "rules": {"type": "integer"}, "source": {"type": "string", "nullable": True}}},
            "Edition": {"type": "object", "properties": {
                "edition": {"type": "string"}, "iri": {"type": "string"}, "title": {"type": "string"},
                "language": {"type": "string"}, "effective_date": {"type": "string", "nullable": True},
                "partial": {"type": "boolean"}, "sources": {"type": "array", "items": {"type": "string"}},
                "sections": {"type": "array", "items": {"type": "object", "properties": {
                    "kind": {"type": "string"}, "number": {"type": "string"}, "title": {"type": "string"},
                    "iri": {"type": "string"}}}}}},
            "Rule": {"type": "object", "properties": {
                "iri": {"type": "string"}, "edition": {"type": "string"}, "number": {"type": "string"},
                "text": {"type": "string"}, "examples": {"type": "array", "items": {"type": "string"}},
                "references": {"type": "array", "items": {"type": "string"}},
                "dangling": {"type": "array", "items": {"type": "string"}},
                "referenced_by": {"type": "array", "items": {"type": "string"}},
                "concepts": {"type": "array", "items": _OBJECT}, "lineage": {"type": "object", "nullable": True}}},
            "Effects": {"type": "object", "properties": {
                "edition": {"type": "string"}, "previous": {"type": "string", "nullable": True},
                "counts": _OBJECT, "changes": _OBJECT, "resolved": _OBJECT}},
            "AsOf": {"type": "object", "properties": {
                "number": {"type": "string"}, "date": {"type": "string"}, "edition": _OBJECT,
                "text": {"type": "string"}, "wording": _OBJECT,
                "superseded_by": {"type": "object", "nullable": True}}},
            "Change": {"type": "object", "properties": {
                "date": {"type": "string"}, "edition": {"type": "string"}, "kind": {"type": "string"},
                "number": {"type": "string"}, "previous_number": {"type": "string", "nullable": True},
                "detail": {"type": "string", "nullable": True}, "lineage": {"type": "string"},
                "wording": {"type": "string"}}},
            "SearchResults": {"type": "object", "properties": {
                "query": {"type": "string"}, "edition": {"type": "string"}, "lang": {"type": "string"},
                "offset": {"type": "integer"}, "limit": {"type": "integer"}, "more": {"type": "boolean"},
                "understood": _OBJECT,
                "results": {"type": "array", "items": {"type": "object", "properties": {
                    "kind": {"type": "string"}, "edition": {"type": "string"}, "rule": {"type": "string"},
                    "term": {"type": "string"}, "score": {"type": "number"}, "snippet": {"type": "string"},
                    "text": {"type": "string"}, "iri": {"type": "string"},
                    "editions": {"type": "array", "items": {"type": "string"}},
                    "why": {"type": "array", "items": {"type": "string"}}}}}}},
        }},
    }
