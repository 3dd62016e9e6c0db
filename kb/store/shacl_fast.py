"""Two of pyshacl's costs on the KB's shapes, removed with the same results.

**An ``sh:or`` whose members are bare ``sh:class`` shapes.** The shapes say that a link leads to
one of a few classes (a rule's parent and a citation's target: a rule, a section or a part; a
concept's definer: a rule or a glossary entry) with ``sh:or ( [ sh:class A ] [ sh:class B ] ... )``.
pyshacl checks each value node against each member in turn and builds, for every member it fails,
a whole validation result (its message formatted, its nodes named) that ``sh:or`` then drops: a
rule passes as a rule only after failing as a section and as a part. In the concepts graph (60,000
definers) that was nine tenths of pyshacl's time: the graph's check took 9.8 s of CPU, now 5.0
(most of it reading the graph); the newest English edition's 7.1, now 6.2 (``rulekb validate`` on
the full KB: 26.4 s of CPU in all, now 20.5). :class:`ClassDisjunction` is pyshacl's own component
with that one case answered directly: a value node conforms to a member when it is a SHACL
instance of each of the member's classes (``rdf:type/rdfs:subClassOf*`` in the data graph, as
pyshacl's ``sh:class`` reads it), and one that conforms to no member gets the result pyshacl makes
(the same ``make_v_result``: focus, value, path, message). Any other ``sh:or`` -- a member with a
path, another constraint, deactivated -- is pyshacl's own code unchanged. Which lists qualify is
worked out once per shapes graph.

**Which of a shape's predicates are constraint parameters.** Each time a shape checks its focus
nodes (70,000 times for one edition) pyshacl tests each of the shape's predicates for membership
in its list of the thirty-odd parameters, an ``==`` between RDF terms per entry (6 million of
them for one edition). :class:`_Parameters` is that list with a set's ``in``: the same list, in
the same order, for whatever else reads it (the newest edition's check 6.2 -> 5.0 s of CPU, the
concepts graph's 5.0 -> 4.6). With both, ``rulekb validate`` on the full KB, SHACL and the QC
checks: 29.5 s of CPU before, 19.0 after (one process, a quiet machine).
"""

from __future__ import annotations

import weakref

from pyshacl.constraints import ALL_CONSTRAINT_PARAMETERS, CONSTRAINT_PARAMETERS_MAP
from pyshacl.constraints.core.logical_constraints import SH_or, OrConstraintComponent
from rdflib import RDF, RDFS, Literal
from rdflib.namespace import SH

# what a bare class member may say besides its sh:class: its type, a name, a comment
_INERT = {RDF.type, SH["class"], SH.name, SH.description, RDFS.label, RDFS.comment}


class ClassDisjunction(OrConstraintComponent):
    def _evaluate_or_constraint(self, executor, or_c, target_graph, focus_value_nodes, _evaluation_path):
        plain = not (executor.sparql_mode or executor.allow_warnings or executor.allow_infos)
        members = self._class_members(or_c) if plain else None
        if members is None:
            return super()._evaluate_or_constraint(executor, or_c, target_graph, focus_value_nodes, _evaluation_path)
        reports = []
        types: dict = {}  # value node -> the classes it is an instance of (a node is often seen again)
        supers: dict = {}  # class -> it and its superclasses
        for focus, values in focus_value_nodes.items():
            for value in values:
                found = types.get(value)
                if found is None:
                    found = types[value] = _instance_of(target_graph, value, supers)
                if not any(classes <= found for classes in members):
                    reports.append(self.make_v_result(target_graph, focus, value_node=value))
        return bool(reports), reports

    def _class_members(self, or_c) -> list[frozenset] | None:
        """The classes of each member of the list ``or_c`` when every member is a shape that
        says ``sh:class`` and nothing else that constrains; None otherwise (once per shapes graph)."""
        known = _MEMBERS.setdefault(self.shape.sg, {})
        if or_c not in known:
            known[or_c] = self._members_now(or_c)
        return known[or_c]

    def _members_now(self, or_c) -> list[frozenset] | None:
        sg = self.shape.sg
        members = []
        for node in set(sg.graph.items(or_c)):
            if sg.is_filtered_out_shape(node):
                continue  # (pyshacl leaves such a member out)
            shape = self.shape.get_other_shape(node)
            if shape is None or shape.deactivated or shape.is_property_shape:
                return None
            said = set(sg.graph.predicates(node))
            classes = frozenset(sg.graph.objects(node, SH["class"]))
            if not classes or not said <= _INERT:
                return None
            members.append(classes)
        return members or None


def _instance_of(graph, node, supers: dict) -> frozenset:
    """The classes ``node`` is a SHACL instance of in ``graph``: its types and their
    superclasses (none for a literal); ``supers`` keeps each type's (it and its superclasses)."""
    if isinstance(node, Literal):
        return frozenset()
    found: set = set()
    for kind in graph.objects(node, RDF.type):
        above = supers.get(kind)
        if above is None:
            above = supers[kind] = frozenset(graph.transitive_objects(kind, RDFS.subClassOf))  # (kind among them)
        found |= above
    return frozenset(found)


_MEMBERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # shapes graph -> {sh:or list: its members' classes}


class _Parameters(list):
    """pyshacl's list of constraint parameters, with a set's ``in`` (a copy is a plain list)."""

    def __init__(self, items):
        super().__init__(items)
        self._members = frozenset(items)

    def __contains__(self, item) -> bool:
        return item in self._members


def install() -> None:
    """pyshacl's shapes build their ``sh:or`` components from this map, and find their
    parameters in this list (``pyshacl.shape.CONSTRAINT_PARAMS``, which it sets itself when unset)."""
    import pyshacl.shape

    CONSTRAINT_PARAMETERS_MAP[SH_or] = ClassDisjunction
    pyshacl.shape.CONSTRAINT_PARAMS = (_Parameters(ALL_CONSTRAINT_PARAMETERS), CONSTRAINT_PARAMETERS_MAP)
