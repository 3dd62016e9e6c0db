"""Reasoning: definitional statements -> OWL axioms (forms, axiom sets), inference with
justifications, and the reasoner backends (HermiT, Pellet, owlrl; Java sources as package data).
"""
