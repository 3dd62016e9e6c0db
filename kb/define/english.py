"""The English reader: a rule sentence -> (concept, aspect, value, members, qualifier, language) tuples."""

from __future__ import annotations

import re

from ..rdf.concepts import concept_key
from .common import NARROWED, Reader, _article, _join, _location_key, _ontology_keys, _singular_en, _subject_key

# --------------------------------------------------------------------------
# English

_EN_LOCATIONS = {
    ("on", "the", "stack"): "on-the-stack",
    ("on", "the", "battlefield"): "on-the-battlefield",
    ("in", "play"): "in-play",
    ("in", "the", "game"): "in-the-game",
    ("in", "the", "command", "zone"): "in-the-command-zone",
}
_EN_REL_LOCATION = {("that's",), ("that", "is"), ("that", "remains"), ("which", "is"), ("while", "it's")}
# words after which a noun phrase has ended cleanly (a modifier or clause follows)
_EN_BOUNDARY = {
    "that", "that's", "which", "who", "whose", "whom", "where", "when", "while", "with", "without", "only",
    "even", "although", "though", "because", "so", "as", "but", "than", "from", "in", "on", "at",
    "by", "into", "onto", "under", "if", "unless", "and", "or", "nor", "a", "an", "the", "necessary", "—", ",", ";",
    ":", ".", "and/or", "therefore",
}
_EN_PARTICIPLE_NEXT = {"on", "in", "to", "by", "from", "for", "as", "with", "into", "onto", "at", "only",
                       "directly", "before", "after", "."}
# words that never belong to a concept's noun phrase
_EN_NOT_NOUN = {
    "it", "its", "this", "that", "these", "those", "each", "every", "any", "all", "some", "such", "other",
    "another", "one", "their", "his", "her", "they", "he", "she", "you", "your", "there", "here", "what",
    "which", "who", "no", "not", "is", "are", "was", "be", "can", "may", "must", "will", "also", "still",
    "always", "never", "both", "either", "neither", "same", "only", "just", "then", "x", "n",
}
_EN_VERBS_PAST = {"creates": "created", "puts": "put", "brings": "brought", "starts": "started",
                  "controls": "controlled", "activates": "activated", "casts": "cast", "plays": "played",
                  "owns": "owned", "create": "created"}
_EN_START_REJECT = re.compile(
    r"^(?:If|When|Whenever|In|Unless|Otherwise|For|Once|While|As|After|Before|During|Although|However|"
    r"Because|Since|Each|Every|Any|All|Some|Only|No|None|This|That|These|Those|It|It's|They|Its|Their|"
    r"Such|Instead|Then|Thus|So|Even|Both|Either|Neither|Most|Many|Other|Another|One|Two|Three|Nothing)\b")
_EN_LIST_REJECT = {"most", "common", "commonly", "chosen", "following", "first", "second", "such", "certain"}
_EN_NUMBERS = {"two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

_TOKEN = re.compile(r"[A-Za-zÀ-ÿ0-9][\w'/-]*|—|[,;:.()\"{}\[\]]")


class _English(Reader):
    """Reads one English sentence (see :func:`extract`)."""

    UNLESS = re.compile(r"\(unless it(?:'s| is) (?:a|an) ([a-z -]+?)[;)]")
    BY_DEFAULT = re.compile(r"By default,\s+")
    START_REJECT = _EN_START_REJECT

    def _unless(self, text: str) -> str:
        return "unless-" + concept_key(text)

    def _trim(self, s: str) -> str:
        return re.sub(r"^(?:Notably|Also|Similarly|In addition|Note that),\s+", "", s).rstrip(" .")

    @staticmethod
    def _clauses(s: str) -> list[str]:
        parts = []
        for piece in re.split(r"\s*;\s*", s):
            parts.extend(re.split(r",? (?:and|but) (?=(?:a|an) [a-z-]+(?: [a-z-]+){0,2} (?:is|isn't)\b)", piece))
        return [p.strip() for p in parts if p.strip()]

    # -- lists ---------------------------------------------------------------

    def _members(self, s: str) -> list[tuple] | None:
        """ "The supertypes are ...", "An object's characteristics are ...",
        "There are normally seven zones: ..." -> members (or kinds)."""
        m = re.match(r"^The ([a-z][a-z' -]*?) are:? (.+)$", s) or re.match(
            r"^(?:A|An) [a-z][a-z, -]*?'s ([a-z][a-z -]*?) are:? (.+)$", s)
        qualifier, aspect = "", "members"
        if m:
            subject, listed = m.group(1), m.group(2)
        else:
            m = re.match(r"^There are (?:(normally) )?(\w+) ([a-z][a-z -]*?)(?: in the Magic game)?: (.+)$", s)
            if not m or (m.group(2) not in _EN_NUMBERS and not m.group(2).isdigit()):
                return None
            qualifier, subject, listed = m.group(1) or "", m.group(3), m.group(4)
        words = [w for w in subject.split() if w not in _EN_NUMBERS and w not in {"general", "main"}]
        if any(w in _EN_NOT_NOUN or w in _EN_BOUNDARY - {"of", "a", "an"} or w in _EN_LIST_REJECT for w in words):
            return None  # "The most common zone-change triggers are ...": a remark, not the list
        if words and words[0] == "basic" and words[-1] == "zones":
            qualifier, words = _join(qualifier, "basic"), words[1:]
        of = re.match(r"^(types|categories|kinds) of (.+)$", " ".join(words))
        if of:
            inner = [_singular_en(w) for w in of.group(2).split()]
            words = inner if of.group(1) == "kinds" else inner + ["type"]
            aspect = "kinds" if of.group(1) == "kinds" else "members"
        elif words in (["types"], ["kinds"], ["categories"]) and s.startswith("There"):
            return None  # "There are three main types: ...": of what, the sentence does not say
        elif words:
            words[-1] = _singular_en(words[-1])
            if " of " in " ".join(words):  # "parts of a card": the head is the first noun
                words[0] = _singular_en(words[0])
        members = _en_list(listed)
        if not words or not members or len(members) < 2:
            return None
        return [(concept_key(" ".join(words)), aspect, "", members, qualifier, "en")]

    # -- copular clauses -----------------------------------------------------

    def _role(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "A spell's controller is ...", "The owner of a card in the game is ..." """
        m = re.match(r"^(?:A|An) (.+?)'s (owner|controller) is(?:, by default,)? (.+)$", c, re.I) or re.match(
            r"^The (owner|controller) of (?:a|an) (.+?) is(?:, by default,)? (.+)$", c)
        if not m:
            return None
        if m.re.pattern.startswith("^The"):
            role, subject, value = m.group(1), m.group(2), m.group(3)
        else:
            subject, role, value = m.group(1), m.group(2), m.group(3)
        if ", by default," in c[: m.start(3)]:
            qualifier = _join(qualifier, "by-default")
        return self._role_statements(subject, [role], value, qualifier)

    def _passive_role(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "A token is controlled by whoever ... and owned by ...",
        "A token is both owned and controlled by ..." """
        m = re.match(r"^(?:A|An) (.+?) is (?:both )?(owned|controlled)(?: and (owned|controlled))? by (.+)$", c)
        if not m:
            return None
        subject, first, second, rest = m.groups()
        roles = [first] + ([second] if second else [])
        second_by = re.match(r"^(.+?) and (owned|controlled) by (.+)$", rest)
        if second_by and not second:  # "controlled by X and owned by Y"
            found = self._role_statements(subject, [_ROLE[first]], second_by.group(1), qualifier)
            other = self._role_statements(subject, [_ROLE[second_by.group(2)]], second_by.group(3), qualifier)
            return found + other if found and other else []
        return self._role_statements(subject, [_ROLE[r] for r in roles], rest, qualifier)

    def _creator_role(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "The player who creates a token is its owner." """
        m = re.match(r"^The player who (\w+) (?:a|an) ([a-z][a-z -]*?) is (?:its|their) (owner|controller)$", c)
        if not m:
            return None
        verb = _EN_VERBS_PAST.get(m.group(1), m.group(1))
        return self._role_statements(m.group(2), [m.group(3)], f"the player who {verb} it", qualifier)

    def _role_statements(self, subject: str, roles: list[str], value: str, qualifier: str) -> list[tuple]:
        subjects = _en_subject(subject)
        if not subjects:
            return []
        out = []
        for words, subject_qualifier in subjects:
            head = words[words.index("of") - 1] if "of" in words else words[-1]  # "copy of a spell": copy
            normalised, unless = _en_role_value(value, head)
            if not normalised:
                return []
            key, subject_qualifier = _subject_key(words, subject_qualifier)
            for role in roles:
                out.append((key, role, normalised, (), _join(qualifier, subject_qualifier, unless), "en"))
        return out

    def _identity(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "The active player is the player whose turn it is." """
        m = re.match(r"^The ([a-z][a-z-]*(?: [a-z][a-z-]*){0,2}) is the (player|object|card|permanent|spell|"
                     r"ability) (?:whose|who|that|which)\b", c)
        if not m or any(w in _EN_NOT_NOUN or w in _EN_BOUNDARY for w in m.group(1).split()):
            return None
        return [(concept_key(m.group(1)), "is-a", m.group(2), (), qualifier, "en")]

    def _copula(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "A spell is a card on the stack.", "An emblem is neither a card nor
        a permanent.", "Counters are not objects", "Outside the game is not a zone." """
        m = re.match(r"^(.+?) (is not|isn't|is|are not|aren't|are) (.+)$", c)
        if not m:
            return None
        subject_text, copula, predicate = m.groups()
        plural = copula.startswith("are")
        subject_words = subject_text.split()
        if subject_words[0] in ("The", "the"):  # "The pile is not an object": a particular thing
            return []
        article = subject_words[0].lower() in ("a", "an")
        if article and plural:  # "A X are ...": not a definition we read
            return []
        if not article and not plural and not (subject_text[0].isupper() or subject_text[0] == '"'):
            return []
        subjects = _en_subject(subject_text, plural=plural)
        if not subjects:
            return []
        negated = copula in ("is not", "isn't", "are not", "aren't") or predicate.startswith(("neither ", "not "))
        if re.search(r"\b(?:if|unless|whether)\b", predicate) and not re.search(r"\b(?:even|as) if\b", predicate):
            return []
        if re.search(r"\b(?:if|unless)\b", subject_text):
            return []
        items, trailing, ok = _en_predicate(predicate, plural=plural, negated=negated)
        if not ok or not items:
            return []
        if plural and not negated:
            # "Xs are Ys" is read only as "Spell abilities are abilities" or
            # "Power and toughness are characteristics" (not "Alternative costs are optional")
            heads = {w[-1] for w, _ in subjects}
            if len(subjects) < 2 and not any(item_words[-1] in heads for item_words, _ in items):
                return []
        values = [_location_key(item_words, item_loc) for item_words, item_loc in items]
        out = []
        for words, subject_qualifier in subjects:
            key, subject_qualifier = _subject_key(words, subject_qualifier)
            q = _join(qualifier, subject_qualifier, trailing)
            if negated:
                out.extend((key, "not-a", value, (), _join(q, value_q), "en") for value, value_q in values)
            elif len(values) == 1:
                value, value_q = values[0]
                out.append((key, "is-a", value, (), _join(q, value_q), "en"))
            else:  # a kind keeps its own location: "an ability on the stack"
                members = tuple(concept_key(" ".join(w) + (" " + loc.replace("-", " ") if loc else ""))
                                for w, loc in items)
                out.append((key, "kinds", "", members, q, "en"))
        return out


_ROLE = {"owned": "owner", "controlled": "controller"}


def _en_words(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _en_subject(text: str, plural: bool = False) -> list[tuple[list[str], str]]:
    """The concepts a subject names, each with its qualifier: "a nontoken
    permanent" -> [(["permanent"], "unless-token")], "Activated and triggered
    abilities on the stack" -> two, "a copy of a spell or ability" -> two."""
    tokens = _en_words(text)
    article = bool(tokens) and tokens[0].lower() in ("a", "an")
    if article:
        tokens = tokens[1:]
    if tokens[:1] == ['"']:  # '"Multicolored" is not a color.'
        if len(tokens) != 3 or tokens[2] != '"':
            return []
        tokens = [tokens[1].lower()]
    if not tokens:
        return []
    location = ""
    for loc, key in _EN_LOCATIONS.items():
        if tuple(tokens[-len(loc):]) == loc and len(tokens) > len(loc):
            tokens, location = tokens[: -len(loc)], key
            break
    qualifier = location
    words = list(tokens)
    if not article and words[0][:1].isupper():  # a bare subject opens the sentence: "Deathtouch is ..."
        words[0] = words[0].lower()
    for k, w in enumerate(words):
        if w in ("of", "from") and words[k + 1 : k + 2] in (["a"], ["an"]):
            continue
        if w in ("or", "and") or (w in ("a", "an") and k and words[k - 1] in ("of", "from")):
            continue
        if w in _EN_NOT_NOUN or w in _EN_BOUNDARY or w == "of" or not re.fullmatch(r"[a-z][a-z-]*", w):
            if len(words) > 1 and concept_key(" ".join(words)) in _ontology_keys():
                return [(words, qualifier)]  # a term of the ontology: "outside the game"
            return []
    if words[0] in ("nontoken", "noncopy"):
        qualifier = _join(qualifier, "unless-" + words[0][3:])
        words = words[1:]
    elif words[0] == "face-up":
        qualifier = _join(qualifier, "face-up")
        words = words[1:]
    # "a power and toughness sticker" is one thing; "a spell or ability", two
    phrases = [words] if not plural and "or" not in words else _coordinate(words, plural)
    if not phrases:
        return []
    out = []
    for phrase in phrases:
        if not phrase or len(phrase) > 5 or "or" in phrase or (plural and "and" in phrase):
            return []
        if plural:
            phrase = phrase[:-1] + [_singular_en(phrase[-1])]
        out.append((phrase, qualifier))
    return out


def _coordinate(words: list[str], plural: bool = False) -> list[list[str]]:
    """Split a coordinated noun phrase: "activated and triggered abilities"
    (shared head), "reminder text and flavor text", "copy of a spell or
    ability" (shared "copy of a")."""
    conj = [i for i, w in enumerate(words) if w in ("and", "or")]
    if not conj:
        return [words]
    if len(conj) > 1:
        return []
    i = conj[0]
    left, right = words[:i], words[i + 1 :]
    if not left or not right:
        return []
    if "of" in left and len(right) == 1 and left[-2:-1] in (["a"], ["an"]):
        prefix = left[:-3]
        return [left, prefix + ["of", _article(right[0]), right[0]]]
    # "activated and triggered abilities", "plane or phenomenon card" (but not
    # "landwalk and snow-covered landwalk are ...": a plural head is needed then)
    if len(left) == 1 and len(right) >= 2 and "of" not in right and (not plural or right[-1].endswith("s")):
        return [left + right[1:], right]
    return [left, right]


# irregular participles that open a modifier ("an ability found on some split cards")
_EN_PARTICIPLES = {"found", "seen", "written", "known", "given", "shown", "made", "put", "chosen", "held", "set"}


def _en_predicate(text: str, plural: bool, negated: bool) -> tuple[list[tuple[list[str], str]], str, bool]:
    """The noun phrases a predicate lists, with their locations, and a trailing
    qualifier: ("a card, or copy of a spell or card, that's on the stack")
    -> [card, copy of a spell, copy of a card], "on-the-stack". A list that words
    after it narrow ("an action or payment necessary to ...", "an activated or
    triggered ability, written ...") trails ``NARROWED``: the subject is one of the
    kinds, but not every one of them is the subject."""
    tokens = _en_words(text)
    i = 0
    while i < len(tokens) and tokens[i] in ("also", "still", "not", "considered", "neither", "both"):
        i += 1
    if tokens[i : i + 2] == ["to", "be"]:
        i += 2
    if tokens[i : i + 3] == ["one", "of", "the"]:  # "one of the (two) people in the game"
        j = i + 3 + (tokens[i + 3 : i + 4] == ["two"])
        if tokens[j : j + 1] == ["people"]:
            rest = tokens[j + 1 :]
            loc = next((key for loc, key in _EN_LOCATIONS.items() if tuple(rest[: len(loc)]) == loc), "")
            return [(["person"], "")], loc, True
        return [], "", False
    items: list[tuple[list[str], str]] = []
    bare: list[bool] = []
    modified = False
    while i < len(tokens):
        had_article = tokens[i] in ("a", "an")
        if had_article:
            i += 1
        elif not plural and not items:
            return [], "", False  # "is colorless", "is the same as ...": not a class
        words: list[str] = []
        while i < len(tokens):
            t = tokens[i]
            following = tokens[i + 1] if i + 1 < len(tokens) else "."
            if t == "of":
                if words == ["copy"] and following in ("a", "an") and i + 2 < len(tokens):
                    words += ["of", following]
                    i += 2
                    continue
                if following in ("a", "an") and words:
                    break  # "a static ability of a card that ...": a modifier
                return [], "", False  # "a type of mana", "part of the permanent's ...": not a class we name
            if t in ("kind", "category") and following == "of" and words in ([], ["special"]):
                words, i = [], i + 2  # "a (special) kind of static ability"
                continue
            if t in _EN_BOUNDARY:
                break
            if t in ("for", "to") or t.endswith("'s"):
                return [], "", False  # "an illegal target for itself", "a player's ..."
            if t in _EN_NOT_NOUN or not re.fullmatch(r"[a-z][a-z'-]*", t):
                break
            if words and (t.endswith(("ed", "ing")) or t in _EN_PARTICIPLES) and \
                    (following in _EN_PARTICIPLE_NEXT or t.endswith("ing")):
                break
            words.append(t)
            i += 1
        if not words or len(words) > 5:
            return [], "", False
        if plural and not had_article:
            if not words[-1].endswith("s") or words[-1].endswith("ss"):
                return [], "", False  # "are played", "are not allowed": not a class
            words = words[:-1] + [_singular_en(words[-1])]
        location = ""
        for loc, key in _EN_LOCATIONS.items():
            if tuple(tokens[i : i + len(loc)]) == loc:
                location, i = key, i + len(loc)
                break
        items.append((words, location))
        bare.append(not had_article)
        nxt = tokens[i] if i < len(tokens) else None
        if nxt is None:
            break
        if nxt == "," and (tuple(tokens[i + 1 : i + 2]) in _EN_REL_LOCATION or
                           tuple(tokens[i + 1 : i + 3]) in _EN_REL_LOCATION):
            i += 1  # ", that's on the stack"
            nxt = tokens[i]
        if nxt in ("or", "nor") or (nxt == "," and tokens[i + 1 : i + 2] in (["or"], ["a"], ["an"])):
            i += 1
            while i < len(tokens) and tokens[i] in ("or", "nor", ","):
                i += 1
            continue
        if tuple(tokens[i : i + 1]) in _EN_REL_LOCATION or tuple(tokens[i : i + 2]) in _EN_REL_LOCATION:
            step = 1 if tuple(tokens[i : i + 1]) in _EN_REL_LOCATION else 2
            rest = tokens[i + step :]
            for loc, key in _EN_LOCATIONS.items():
                if tuple(rest[: len(loc)]) == loc:
                    items[-1] = (items[-1][0], items[-1][1] or key)
                    i = i + step + len(loc)
                    break
            else:
                modified = True
            break
        if nxt in ("in", "on", "at", "into", "onto", "under", "outside", "inside") and \
                tokens[i + 1 : i + 2] not in (["which"], ["whom"]):  # "zones in which ...": a relative clause
            return [], "", False  # a place we have no qualifier for ("a card on the table"): not the whole class
        if nxt in _EN_BOUNDARY or nxt.endswith(("ed", "ing")) or nxt in _EN_PARTICIPLES:
            modified = True
            break
        return [], "", False  # something we cannot read follows the noun phrase
    if modified and re.search(r"\b(?:or|,) (?:a|an) [a-z]", " ".join(tokens[i:])) and len(items) == 1 and not negated:
        return [], "", False  # "an activated ability that ... or a triggered ability ...": ambiguous
    for k in range(1, len(items)):
        words, loc = items[k]
        prev = items[k - 1][0]
        # "a copy of a spell or card": a bare noun after "copy of a Y" shares "copy of a"
        if bare[k] and len(words) == 1 and "of" in prev and prev[-2] in ("a", "an"):
            items[k] = (prev[:-2] + [_article(words[0]), words[0]], loc)
    for k in range(len(items) - 1):
        # "an activated or triggered ability": an adjective shares the next noun
        words, loc = items[k]
        nxt_words = items[k + 1][0]
        if len(words) == 1 and words[0].endswith("ed") and len(nxt_words) >= 2 and bare[k + 1] \
                and "of" not in nxt_words:
            items[k] = (words + nxt_words[1:], loc)
    trailing = ""
    locations = [loc for _, loc in items]
    if len(items) > 1 and locations[-1] and not any(locations[:-1]):
        trailing = locations[-1]
        items[-1] = (items[-1][0], "")
    if modified and len(items) > 1 and not negated:
        trailing = _join(trailing, NARROWED)
    return items, trailing, True


def _en_list(text: str) -> tuple[str, ...] | None:
    """ "basic, legendary, ongoing, snow, and world" -> keys; None when the
    text is not a plain list of short noun phrases."""
    text = text.strip().rstrip(".")
    if re.search(r"\b(?:and/or|is|are|can|may|that|which|who|where|when|if|as follows)\b|[{}:\[\]\"]", text):
        return None
    semicolons = ";" in text
    raw = [p.strip() for p in re.split(r"\s*;\s*" if semicolons else r"\s*,\s*", text) if p.strip()]
    if len(raw) == 1:
        raw = [p.strip() for p in re.split(r"\s+and\s+", text)]
    raw = [re.sub(r"^(?:and|or)\s+", "", p) for p in raw]
    if not semicolons and not all(" and " in p for p in raw):
        # "type and subtype" -> two; "replacement and prevention effects" -> two effects
        raw = [" ".join(q) for p in raw for q in (_coordinate(p.split(), plural=True) if " and " in p else [p.split()])]
    members = []
    for item in raw:
        words = item.split()
        if not words or len(words) > 5 or any(w.lower() in _EN_NOT_NOUN - {"one"} for w in words):
            return None
        if not all(re.fullmatch(r"[A-Za-z0-9][\w'/-]*", w) for w in words):
            return None
        words = words[:-1] + [_singular_en(words[-1])]
        members.append(concept_key(" ".join(words)))
    return tuple(members)


def _en_role_value(value: str, head: str) -> tuple[str, str]:
    """A normalised owner/controller phrase and an "unless-..." qualifier:
    "the player who played the spell." -> "player who played it"."""
    v = value.strip().rstrip(".")
    unless = ""
    m = re.search(r",? unless it(?:'s| is) (?:a|an) ([a-z -]+)$", v)
    if m:
        unless, v = "unless-" + concept_key(m.group(1)), v[: m.start()]
    v = re.sub(r",? or, (?:if|for) .*$", "", v)
    v = re.sub(r",? even if .*$", "", v)
    v = re.sub(r"^(?:is )?the same (?:person )?as ", "", v)
    v = re.sub(r"\bwho(?:m)?ever\b", "the player who", v)
    v = re.sub(r"\b(?:person|player) (?:who|that)\b", "player who", v)
    v = re.sub(r"\bhis or her\b", "their", v)
    v = re.sub(r"\bhe or she\b", "they", v)
    v = re.sub(r"\bhim or her\b", "them", v)
    v = re.sub(r"\bthe ability's source\b", "its source", v)
    v = re.sub(r"\bat the time it triggered\b", "when it triggered", v)
    v = re.sub(rf"\bthe {re.escape(head)}\b(?!'| or\b)", "it", v)
    v = re.sub(r"\bwho (\w+)\b", lambda m: "who " + _EN_VERBS_PAST.get(m.group(1), m.group(1)), v)
    v = re.sub(r"\b(?:its|their) (owner|controller)$", r"\1", v)
    v = re.sub(r"^the ", "", v)
    v = re.sub(r"\s+", " ", v).strip(" ,")
    if not re.match(r"^(?:player|owner|controller)\b", v) or v.startswith(("player's", "owner's")):
        return "", ""
    return v, unless
