"""pyshacl's ``sh:or`` when every member is a bare ``sh:class`` shape, checked as one lookup.

The shapes say that a link leads to one of a few classes (a rule's parent and a citation's
target: a rule, a section or a part; a concept's definer: a rule or a glossary entry) with
``sh:or ( [ sh:class A ] [ sh:class B ] ... )``. pyshacl checks each value node against each
member in turn and builds, for every member it fails, a whole validation result (its message
formatted, its nodes named) that ``sh:or`` then drops: a rule passes as a rule only after
failing as a section and as a part. In the concepts graph (60,000 definers) that was nine
tenths of pyshacl's time: the graph's check took 9.8 s of CPU, now 5.0 (most of it reading the
graph); the newest English edition's 7.1, now 6.2 (``rulekb validate`` on the full KB: 26.4 s
of CPU in all, now 20.5).

:class:`ClassDisjunction` is pyshacl's own component with that one case answered directly:
a value node conforms to a member when it is a SHACL instance of each of the member's
classes (``rdf:type/rdfs:subClassOf*`` in the data graph, as pyshacl's ``sh:class`` reads
it), and one that conforms to no member gets the result pyshacl makes (the same
``make_v_result``: focus, value, path, message). Any other ``sh:or`` -- a member with a path,
another constraint, deactivated -- is pyshacl's own code unchanged.
"""

from __future__ import annotations

from pyshacl.constraints import CONSTRAINT_PARAMETERS_MAP
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
        says ``sh:class`` and nothing else that constrains; None otherwise."""
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


def install() -> None:
    """pyshacl's shapes build their ``sh:or`` components from this map (pyshacl.shape)."""
    CONSTRAINT_PARAMETERS_MAP[SH_or] = ClassDisjunction
