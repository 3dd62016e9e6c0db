"""The web endpoint (``rulekb serve``): the SPARQL 1.1 Protocol at ``/sparql``.

``app.create_app`` builds the Starlette application; ``conneg`` chooses a
media type (Accept with q-values, or a ``format=`` parameter); ``sparql``
answers the protocol, read-only, with limits (request size, rows, time).
"""
