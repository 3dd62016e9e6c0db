"""Every benchmark and evaluation (``rulekb bench ...``): the KB, the web endpoint under load,
alignment, translation, definitions and ask, with their gold sets as package data (gold/).
"""
