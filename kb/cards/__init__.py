"""Magic cards as linked data: each card of an Oracle file (Scryfall, MTGJSON, the
corpus's trimmed file; read by :mod:`rulekb.ingest.cards`) linked to the KB's concepts
-- its keywords, types and ability shapes (:mod:`.link`) -- and through them to the
rules that govern it; written by the build as a named graph (:mod:`.quads`) and as a
compact name index beside the search index (:mod:`.names`), which lets a question name
cards (:mod:`.recognise`)."""
