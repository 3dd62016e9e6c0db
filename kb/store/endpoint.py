"""Talking to a SPARQL endpoint over HTTP, apart from what the KB stores there (:mod:`.remote`).

- :func:`endpoints`: the update and Graph Store Protocol URLs of common servers::

    oxigraph   http://host:7878/query        -> /update, /store
    Fuseki     http://host:3030/ds/sparql    -> /ds/update, /ds/data   (also /ds/query)
    Virtuoso   http://host:8890/sparql       -> /sparql-auth, /sparql-graph-crud-auth
    RDF4J      http://host/rdf4j-server/repositories/kb -> .../statements, .../rdf-graphs/service

- the errors of an endpoint: :class:`EndpointDown` (unreachable, timed out, failed: 503)
  and :class:`EndpointBroken` (answered, but not with a whole answer: 502), both with
  ``retry_after`` for a web front;
- credentials for writes, from the environment (``RULEKB_STORE_USER`` and
  ``RULEKB_STORE_PASSWORD``, or ``RULEKB_STORE_PASSWORD_FILE``, a file holding the
  password), never from a URL (refused: URLs end up in logs and messages), never in a
  message; :class:`Writer` sends writes with Digest or Basic auth, whichever the server
  asks for, the body once, already authorised;
- Virtuoso's answers made standard: its ``typed-literal`` and 1/0 booleans in SPARQL
  JSON (:func:`standard_json`), its ``# Empty NT`` comment (:func:`no_comments`).
"""

from __future__ import annotations

import ast
import base64
import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pyoxigraph as ox
from SPARQLWrapper.SPARQLExceptions import SPARQLWrapperException

from ..errors import StoreError


def endpoints(query_url: str) -> tuple[str, str | None]:
    """(update URL, GSP URL) by the conventions of common servers; GSP may be unknown."""
    parts = urlsplit(query_url)
    path = parts.path.rstrip("/")
    head, _, last = path.rpartition("/")

    def at(new_path: str) -> str:
        return urlunsplit((parts.scheme, parts.netloc, new_path, "", ""))

    if path == "/query":  # oxigraph
        return at("/update"), at("/store")
    if path == "/sparql":  # Virtuoso: writes only through its authenticated endpoints
        return at("/sparql-auth"), at("/sparql-graph-crud-auth")
    if last in ("query", "sparql"):  # Fuseki: /ds/query or /ds/sparql
        return at(head + "/update"), at(head + "/data")
    if "/repositories/" in path:  # RDF4J, GraphDB
        return at(path + "/statements"), at(path + "/rdf-graphs/service")
    return query_url, None



def one_line(body: bytes | str, limit: int = 500) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + " ..."


def server_message(exc: SPARQLWrapperException) -> str:
    """SPARQLWrapper keeps the server's answer only as a repr inside its message."""
    _, _, raw = str(exc).partition("Response:\n")
    try:
        return one_line(ast.literal_eval(raw))
    except (ValueError, SyntaxError):
        return one_line(str(exc))


class EndpointDown(StoreError):
    """The endpoint cannot be reached, timed out or failed: a server in front says 503, come back later."""

    status = 503
    retry_after = 5


class EndpointBroken(StoreError):
    """The endpoint answered, but not with a whole answer we can serve (HTML, truncated, cut
    at its row limit, access refused): a server in front says 502."""

    status = 502
    retry_after = 5


def credentials() -> tuple[str, str] | None:
    """(user, password) for writes, from the environment (see the module's docstring)."""
    user = os.environ.get("RULEKB_STORE_USER")
    password = os.environ.get("RULEKB_STORE_PASSWORD")
    path = os.environ.get("RULEKB_STORE_PASSWORD_FILE")
    if path and password is None:
        try:
            password = Path(path).read_text(encoding="utf-8").strip("\r\n")
        except OSError as exc:
            raise StoreError(f"cannot read RULEKB_STORE_PASSWORD_FILE {path}: {exc.strerror}") from None
    if password is not None and not user:
        raise StoreError("a store password is set but no RULEKB_STORE_USER")
    return (user, password or "") if user else None


def no_userinfo(url: str) -> str:
    if url and urlsplit(url).password is not None:
        raise StoreError("credentials in a store URL end up in logs: set RULEKB_STORE_USER and "
                         "RULEKB_STORE_PASSWORD (or RULEKB_STORE_PASSWORD_FILE) instead")
    return url


XSD_BOOLEAN = "http://www.w3.org/2001/XMLSchema#boolean"
_CANONICAL_BOOLEAN = {"1": "true", "0": "false"}


def standard_json(body: bytes) -> bytes:
    """SPARQL 1.1 JSON results from Virtuoso's: its ``typed-literal`` (SPARQL 1.0) as
    ``literal``, its xsd:boolean values 1/0 as their canonical true/false. A body that is
    not JSON (cut mid-way) raises ValueError."""
    if b'"typed-literal"' not in body and XSD_BOOLEAN.encode() not in body:
        json.loads(body)  # still a check that the answer is whole
        return body
    results = json.loads(body)
    for row in results.get("results", {}).get("bindings", []):
        for term in row.values():
            if term.get("type") == "typed-literal":
                term["type"] = "literal"
            if term.get("datatype") == XSD_BOOLEAN:
                term["value"] = _CANONICAL_BOOLEAN.get(term["value"], term["value"])
    return json.dumps(results, ensure_ascii=False).encode("utf-8")


def no_comments(body: bytes) -> bytes:
    """N-Triples without comment lines (Virtuoso answers an empty graph with ``# Empty NT``)."""
    if not body.startswith(b"#") and b"\n#" not in body:
        return body
    return b"".join(line for line in body.splitlines(keepends=True) if not line.startswith(b"#"))


def unescaped(body: bytes, media: str, url: str) -> bytes:
    """RDF whose characters come as ``\\u`` escapes (Virtuoso writes every non-ASCII character
    so) re-serialised with the characters themselves, as the embedded store writes it."""
    fmt = ox.RdfFormat.from_media_type(media)
    if fmt is None:
        return body
    try:
        return ox.serialize(ox.parse(body, format=fmt), format=fmt)
    except SyntaxError as exc:
        raise EndpointBroken(f"{url} sent malformed or truncated {fmt.name}: {one_line(str(exc), 200)}") from None


class Writer:
    """urllib's opener for writes (updates, GSP): with credentials, Digest or Basic auth, as
    the server asks; a body is sent once, already authorised: the challenge comes first from
    a HEAD of the same URL (a server that refuses an unauthorised body may close the
    connection while it is being sent: Virtuoso does)."""

    def __init__(self, credentials: tuple[str, str] | None, urls: list[str | None], timeout: float):
        self.credentials, self.timeout = credentials, timeout
        self.passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
        if credentials is None:
            self.opener = urllib.request.build_opener()
            return
        for url in urls:
            if url:
                self.passwords.add_password(None, url, *credentials)
        self.opener = urllib.request.build_opener(urllib.request.HTTPDigestAuthHandler(self.passwords),
                                                  urllib.request.HTTPBasicAuthHandler(self.passwords))

    def send(self, request: urllib.request.Request, timeout: float):
        if self.credentials is not None and request.data:
            self._authorise(request)
        return self.opener.open(request, timeout=timeout)

    def _authorise(self, request: urllib.request.Request) -> None:
        probe = urllib.request.Request(request.full_url, method="HEAD")
        try:
            urllib.request.build_opener().open(probe, timeout=self.timeout).close()
            return  # no challenge: nothing to add
        except urllib.error.HTTPError as exc:
            challenge = exc.headers.get("WWW-Authenticate") or ""
            exc.close()
            if exc.code != 401:
                return
        scheme, _, rest = challenge.partition(" ")
        if scheme.lower() == "digest":
            digest = urllib.request.HTTPDigestAuthHandler(self.passwords)
            fields = urllib.request.parse_keqv_list(filter(None, urllib.request.parse_http_list(rest)))
            authorization = digest.get_authorization(request, fields)
            if authorization:
                request.add_unredirected_header("Authorization", f"Digest {authorization}")
        elif scheme.lower() == "basic":
            token = base64.b64encode(":".join(self.credentials).encode("utf-8")).decode("ascii")
            request.add_unredirected_header("Authorization", f"Basic {token}")
