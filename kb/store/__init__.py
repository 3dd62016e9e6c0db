"""The store: the Store interface (kind), the embedded Oxigraph store and the remote SPARQL
endpoint that satisfy it, opening one by location, the named-query registry, what is read
out of a store whole (describe an IRI, export, validate, the VoID description), and the memo
of values read from a store, kept per build (:mod:`kb.store.memo`).
"""
