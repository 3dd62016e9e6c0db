"""Editions as RDF and back: IRIs and the rk: vocabulary, an edition's graph (rules, links,
concepts, definitional statements), the lineage, translation and meaning-change graphs, and
an edition read back from the KB.
"""
