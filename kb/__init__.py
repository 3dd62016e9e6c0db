"""kb: the knowledge base over the document model -- and the ``rulekb`` command.

Dependencies run one way: ``ingest`` (sources -> Edition) -> ``kb`` (RDF, store,
comparison, reasoning) -> the CLI (``kb.cli``) and the web endpoint.
"""
