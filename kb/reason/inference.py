"""What an inference run gives, and how it is read out of the reasoner's answer: the results (facts, steps, the edition's verdict), our own justifications (the Justifier), and the assembly of a Result from a raw run.

Split out of :mod:`kb.reason.infer`, which runs the reasoners, caches their answers and calls these.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

from rdflib.namespace import OWL

from .axioms import ISA, NOTA, RK, Axiom, AxiomSet, Source, describe_statement, render


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Step:
    """One step of a justification: a relation and the axioms that give it."""

    relation: str  # "spell ⊑ object", "card ⊥ token"
    axioms: tuple[str, ...]  # the axioms used, rendered
    sources: tuple[Source, ...]  # the statements behind them
    ontology: tuple[str, ...] = ()  # those of the axioms only the ontology gives, rendered


@dataclass(frozen=True)
class Inferred:
    """A fact no single statement states, entailed by an edition's axioms."""

    concept: str  # concept key
    aspect: str  # "is-a" | "not-a"
    value: str  # concept key
    derived_from: tuple[tuple[str, object], ...]  # (rule number, Statement) the justification uses
    ontology_axioms: tuple[str, ...] = ()  # ontology axioms it uses, rendered
    steps: tuple[Step, ...] = ()
    edition: str = ""
    reasoner: str = "hermit"
    pellet: tuple[str, ...] | None = None  # Pellet's justification (rendered axioms), when asked
    pellet_agrees: bool | None = None  # Pellet used exactly the axioms of our chain
    stated: bool = False  # (Result.check only) one statement says it
    # Statement-shaped, so kb.rdf.statements can store an inference like a statement:
    members: tuple[str, ...] = ()
    qualifier: str = ""
    negated: bool = False


@dataclass
class Result:
    edition: str
    consistent: bool
    inferred: list[Inferred]
    unsatisfiable: list[str]  # concept keys that can have no instance
    explanation_of_inconsistency: list[str]  # readable lines; empty when consistent
    seconds: float
    reasoner: str
    digest: str = ""  # of the axiom set: editions with equal digests have equal results
    cached: bool = False
    clashing: list[tuple[str, object]] = field(default_factory=list)  # statements of the clash
    ontology_conflicts: list[list[str]] = field(default_factory=list)  # readable, one list per conflict
    set_aside: list[str] = field(default_factory=list)  # ontology axioms set aside, rendered
    skipped: list[tuple[str, object, str]] = field(default_factory=list)  # statements with no OWL form
    axioms: AxiomSet | None = None  # the axioms reasoned with (without those set aside)
    raw: dict = field(default_factory=dict, repr=False)  # the reasoner's output, IRIs

    def check(self, concept: str, aspect: str, value: str) -> Inferred | None:
        """Is ``concept`` a ``value`` ("is-a"), or not one ("not-a")? The entailed fact with
        its justification (``stated=True`` when one statement says it), or None."""
        naming = self.axioms.naming
        a, b = naming.iri(concept), naming.iri(value)
        justifier = Justifier(self.axioms)
        if aspect == ISA and [a, b] in self.raw.get("sub", []):
            chain, stated = justifier.subclass(a, b), justifier.stated_subclass(a, b)
        elif aspect == NOTA and sorted((a, b)) in self.raw.get("disjoint", []):
            chain, stated = justifier.disjoint(a, b), justifier.stated_disjoint(a, b)
        else:
            return None
        fact = _fact(self.edition, self.axioms, a, aspect, b, chain, None, "", self.reasoner)
        return replace(fact, stated=stated)


def _cite(step: Step, edition: str) -> str:
    parts = []
    for source in step.sources:
        where = source.edition or edition
        parts.append(f"rule {source.rule}" + (f", {where}" if where else "")
                     + f": {describe_statement(source.statement)}")
    parts += [f"ontology: {axiom}" for axiom in step.ontology]
    return "(" + " | ".join(dict.fromkeys(parts)) + ")" if parts else ""


def _facts(axioms: AxiomSet, run: dict) -> tuple[list, list]:
    """The inferred facts to report: (is-a pairs, not-a pairs) no single statement
    states. Every is-a; a not-a between two concepts the ontology names (token, card,
    spell, emblem...); elsewhere only the most general not-a (flying ⊥ cycling follows
    from static ability ⊥ activated ability and is left out: there are thousands)."""
    justifier = Justifier(axioms)
    is_a = [(a, b) for a, b in run["sub"] if not justifier.stated_subclass(a, b)]
    above: dict[str, set[str]] = {}
    for a, b in run["sub"]:
        above.setdefault(a, {a}).add(b)
    disjoint = {frozenset(p) for p in run["disjoint"]}

    def general(a, b) -> bool:
        return any(frozenset((x, y)) in disjoint for x in above.get(a, {a}) for y in above.get(b, {b})
                   if {x, y} != {a, b})

    core = str(RK)
    not_a = [(a, b) for a, b in run["disjoint"] if not justifier.stated_disjoint(a, b)
             and ((a.startswith(core) and b.startswith(core)) or not general(a, b))]
    return is_a, not_a


# ---------------------------------------------------------------- justifications (our own)


class Justifier:
    """Shortest chains of asserted axioms behind a subsumption or a disjointness."""

    def __init__(self, axioms: AxiomSet):
        self.axioms = axioms
        self.up: dict[str, list[tuple[str, tuple[Axiom, ...]]]] = {}  # a -> [(b, axioms giving a ⊑ b)]
        self.base: dict[frozenset, tuple[Axiom, ...]] = {}  # disjoint pair -> axioms
        domains: dict[str, list[tuple[str, Axiom]]] = {}
        functional = {a.form[1]: a for a in axioms.axioms if a.kind == "functional"}
        different = [a for a in axioms.axioms if a.kind == "different"]
        values: dict[str, list[tuple[str, str, Axiom]]] = {}  # class -> [(role, individual, axiom)]
        roles: dict[str, list[tuple[str, str, Axiom]]] = {}  # class -> [(role, "some"|"none", axiom)]
        for a in axioms.axioms:
            if a.kind == "domain" and a.form[2][0] == "C":
                domains.setdefault(a.form[1], []).append((a.form[2][1], a))
        for a in axioms.axioms:
            form = a.form
            if form[0] == "sub" and form[1][0] == "C":
                self._necessary(form[1][1], form[2], a, values, roles)
            elif form[0] == "eq":
                for x, y in ((form[1], form[2]), (form[2], form[1])):
                    if x[0] == "C":
                        self._necessary(x[1], y, a, values, roles)
                        for member in (y[1] if y[0] == "or" else ()):
                            if member[0] == "C":
                                self._edge(member[1], x[1], (a,))
            elif form[0] == "disjoint":
                names = [ce[1] for ce in form[1] if ce[0] == "C"]
                for i, x in enumerate(names):
                    for y in names[i + 1:]:
                        self._base(x, y, (a,))
        # a role restriction puts a class in the role's domain
        for table in (roles, values):
            for cls, items in table.items():
                for role, _, a in items:
                    for domain, d in domains.get(role, ()):
                        self._edge(cls, domain, (a, d))
        # a functional role with two different values: on the stack vs. on the battlefield
        for c1, items1 in values.items():
            for c2, items2 in values.items():
                for role1, v1, a1 in items1 if c1 < c2 else ():
                    for role2, v2, a2 in items2:
                        if role1 == role2 and v1 != v2 and role1 in functional:
                            diff = next((d for d in different if v1 in d.form[1] and v2 in d.form[1]), None)
                            if diff is not None:
                                self._base(c1, c2, (a1, a2, functional[role1], diff))
        # "has no controller" against "has a controller"
        for c1, items1 in roles.items():
            for c2, items2 in roles.items():
                for role1, kind1, a1 in items1 if c1 != c2 else ():
                    for role2, kind2, a2 in items2:
                        if role1 == role2 and kind1 == "none" and kind2 == "some":
                            self._base(c1, c2, (a1, a2))

    def _necessary(self, cls: str, ce: tuple, axiom: Axiom, values: dict, roles: dict) -> None:
        """Record what ``cls ⊑ ce`` says about cls's superclasses and roles."""
        for part in ce[1] if ce[0] == "and" else (ce,):
            if part[0] == "C":
                self._edge(cls, part[1], (axiom,))
            elif part[0] == "value":
                values.setdefault(cls, []).append((part[1], part[2], axiom))
            elif part[0] == "some":
                roles.setdefault(cls, []).append((part[1], "some", axiom))
            elif part[0] == "only" and part[2][0] == "nothing":
                roles.setdefault(cls, []).append((part[1], "none", axiom))
            elif part[0] == "not" and part[1][0] == "C":
                self._base(cls, part[1][1], (axiom,))

    def _edge(self, a: str, b: str, axioms: tuple) -> None:
        if a != b:
            self.up.setdefault(a, []).append((b, axioms))

    def _base(self, a: str, b: str, axioms: tuple) -> None:
        key = frozenset((a, b))
        if key not in self.base or len(axioms) < len(self.base[key]):
            self.base[key] = axioms

    def paths(self, start: str) -> dict[str, list[tuple]]:
        """Shortest chains from ``start`` to each of its asserted superclasses."""
        found = {start: []}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there, axioms in self.up.get(here, ()):
                if there not in found:
                    found[there] = found[here] + [(here, there, axioms, "⊑")]
                    queue.append(there)
        return found

    def subclass(self, a: str, b: str) -> list[tuple] | None:
        return self.paths(a).get(b)

    def disjoint(self, a: str, b: str) -> list[tuple] | None:
        """Chains a ⊑ x, b ⊑ y and the axioms making x and y disjoint (shortest overall)."""
        return self._best(self.paths(a), self.paths(b))

    def unsatisfiable(self, c: str) -> list[tuple] | None:
        """Chains from c to two disjoint superclasses."""
        paths = self.paths(c)
        return self._best(paths, paths)

    def _best(self, left: dict, right: dict) -> list[tuple] | None:
        best = None
        for x, chain_x in left.items():
            for y, chain_y in right.items():
                axioms = self.base.get(frozenset((x, y))) if x != y else None
                if axioms is None:
                    continue
                chain = chain_x + [s for s in chain_y if s not in chain_x] + [(x, y, axioms, "⊥")]
                if best is None or (len(chain), _size(chain)) < (len(best), _size(best)):
                    best = chain
        return best

    def stated_subclass(self, a: str, b: str) -> bool:
        """Does one statement say a ⊑ b?"""
        return any(there == b and len(axioms) == 1 and self.axioms.stated(axioms[0])
                   for there, axioms in self.up.get(a, ()))

    def stated_disjoint(self, a: str, b: str) -> bool:
        axioms = self.base.get(frozenset((a, b)))
        return bool(axioms) and len(axioms) == 1 and self.axioms.stated(axioms[0])


def _size(chain) -> int:
    return sum(len(step[2]) for step in chain)


# ---------------------------------------------------------------- results from the reasoner's output


def _assemble(edition: str, full: AxiomSet, raw: dict, reasoner: str) -> Result:
    axioms = full.without(raw["dropped"])  # what the edition was finally reasoned with
    naming = axioms.naming
    justifier = Justifier(axioms)
    pellet = raw.get("pellet")
    inferred = []
    if raw["consistent"]:
        is_a, not_a = _facts(axioms, raw)
        for a, b in is_a:
            inferred.append(_fact(edition, axioms, a, ISA, b, justifier.subclass(a, b), pellet, f"sub {a} {b}",
                                  reasoner))
        for a, b in not_a:
            query = f"disjoint {a} {b}"
            # name first the concept a statement is about: "token ⊥ card", not "card ⊥ token"
            a, b = sorted((a, b), key=lambda iri: (iri not in axioms.witnesses, naming.name(iri)))
            inferred.append(_fact(edition, axioms, a, NOTA, b, justifier.disjoint(a, b), pellet, query, reasoner))
    witnessed_unsat = [c for c in raw["unsat"] if c in axioms.witnesses]
    consistent = raw["consistent"] and not witnessed_unsat
    lines, clashing = [], []
    if not consistent:
        lines, clashing = _explain_inconsistency(edition, axioms, justifier, raw, witnessed_unsat)
    dropped = set(raw["dropped"])
    return Result(
        edition=edition,
        consistent=consistent,
        inferred=sorted(inferred, key=lambda f: (f.aspect, f.concept, f.value)),
        unsatisfiable=sorted(naming.name(c) for c in raw["unsat"]),
        explanation_of_inconsistency=lines,
        seconds=0.0,
        reasoner=reasoner,
        digest=full.digest,
        clashing=clashing,
        ontology_conflicts=[_conflict_lines(edition, full, c) for c in raw["conflicts"]],
        set_aside=[render(a, naming) for a in full.axioms if a.id in dropped],
        skipped=list(full.skipped),
        axioms=axioms,
        raw=raw,
    )


def _fact(edition, axioms: AxiomSet, a, aspect, b, chain, pellet, query, reasoner) -> Inferred:
    naming = axioms.naming
    by_id = axioms.by_id()
    justification = pellet.get(query) if pellet else None
    steps = _steps(chain, axioms) if chain else _id_steps([i for i, _ in justification or ()], axioms)
    agrees = None
    if justification is not None and chain:
        agrees = {i for i, _ in justification} == {ax.id for step in chain for ax in step[2]}
    return Inferred(
        concept=naming.name(a),
        aspect=aspect,
        value=naming.name(b),
        derived_from=tuple(dict.fromkeys((s.rule, s.statement) for step in steps for s in step.sources)),
        ontology_axioms=tuple(dict.fromkeys(ax for step in steps for ax in step.ontology)),
        steps=tuple(steps),
        edition=edition,
        reasoner=reasoner,
        pellet=None if justification is None else tuple(
            render(by_id[i], naming) if i in by_id else text for i, text in justification),
        pellet_agrees=agrees,
    )


def _steps(chain, axioms: AxiomSet) -> list[Step]:
    """Steps from a chain of (class, class, axioms, symbol); axioms as Axiom objects or ids."""
    naming, by_id = axioms.naming, axioms.by_id()
    steps = []
    for a, b, used, symbol in chain:
        used = [by_id.get(u) if isinstance(u, str) else u for u in used]
        used = [u for u in used if u is not None]
        if symbol == "·":  # a step of Pellet's: one axiom, no relation of its own
            steps += _id_steps([ax.id for ax in used], axioms)
        else:
            steps.append(_step(f"{naming.name(a)} {symbol} {naming.name(b)}", used, axioms))
    return steps


def _step(relation: str, used, axioms: AxiomSet) -> Step:
    """A step citing each axiom's statements, or the ontology when no statement gives it."""
    naming = axioms.naming
    stated = {ax: [s for s in axioms.axioms.get(ax, []) if not s.from_ontology] for ax in used}
    return Step(
        relation,
        tuple(render(ax, naming) for ax in used),
        tuple(dict.fromkeys(s for ax in used for s in stated[ax])),
        tuple(render(ax, naming) for ax in used if not stated[ax]),
    )


def _id_steps(ids, axioms: AxiomSet) -> list[Step]:
    by_id = axioms.by_id()
    return [_step(render(by_id[i], axioms.naming), (by_id[i],), axioms) for i in ids if i in by_id]


def _conflict_lines(edition: str, axioms: AxiomSet, conflict: dict) -> list[str]:
    """A clash between the edition and the ontology, and the ontology axioms set aside."""
    naming = axioms.naming
    what = naming.name(conflict["concept"]) if conflict["concept"] else "its individuals"
    lines = [f"{edition} disagrees with the ontology about {what}:"]
    lines += ["  " + step.relation + " " + _cite(step, edition) for step in _steps(conflict["chain"], axioms)]
    by_id = axioms.by_id()
    aside = "; ".join(render(by_id[i], naming) for i in conflict["dropped"] if i in by_id)
    lines.append(f"  set aside for this edition (ontology): {aside}")
    return lines


def _explain_inconsistency(edition, axioms: AxiomSet, justifier: Justifier, raw: dict, witnessed_unsat: list[str]):
    """Readable lines naming the clashing axioms, and the statements they come from."""
    naming = axioms.naming
    pellet = raw.get("pellet") or {}
    if not raw["consistent"]:
        lines = [f"{edition}: the statements contradict each other (no model at all):"]
        steps = _id_steps([i for i, _ in pellet.get("inconsistent") or ()], axioms)
        if not steps:
            lines.append("  (no explanation: Pellet, which needs Java, explains these)")
    else:
        concept = witnessed_unsat[0]
        lines = [f"{edition}: {naming.name(concept)} can have no instance, yet the rules define it:"]
        chain = justifier.unsatisfiable(concept)
        steps = _steps(chain, axioms) if chain else _id_steps(
            [i for i, _ in pellet.get(f"unsat {concept}") or ()], axioms)
        if len(witnessed_unsat) > 1:
            lines.append("  (nor can " + ", ".join(naming.name(c) for c in witnessed_unsat[1:]) + ")")
    lines += ["  " + step.relation + " " + _cite(step, edition) for step in steps]
    clashing = list(dict.fromkeys((s.rule, s.statement) for step in steps for s in step.sources))
    return lines, clashing
