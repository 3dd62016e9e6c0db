"""Which cards a question names, and what each brings to the search.

A question names a card

- in brackets, ``[Platinum Angel]`` or ``[[Platinum Angel]]`` -- a name the index does not
  know is looked up as a misspelling (:meth:`.names.NameIndex.near`), else reported as
  unknown, never an error;
- written plainly, "if I cast Lightning Bolt on ...": the longest run of the question's
  words that is a card's name, a face's name or a legendary card's short name
  ("Keranos"). A one-word name must be capitalised (or, in an English question, be five
  letters or more: "stifle"; a face of a card of several, only after a casting verb: "cast
  unwind") and must not be a word of the rules (a KB concept's label, a
  word the rules' text uses in lower case, a question word:
  "Exile", "Flash" and "Island" are cards, and words of the rules first); a longer name
  written in lower case must not be made only of such words (unless right after a casting verb:
  "if i cast lightning bolt"), nor be a phrase of the rules;
- in the plural, a name of several words ("two Platinum Angels", "Leylines of the Void"), which is
  also how judges use a name as a verb ("my opponent Doom Blades my Dragon");
- by its French name, where the card file has French names (MTGJSON's AtomicCards, Scryfall's
  printings in French): in brackets in any question, written plainly in a French question, capitalised
  ("si je lance Meurtre sur l'Ange de platine"), not a sentence's first word alone;
- misspelt, in a run of two or more capitalised words that is no card's name ("Platinum
  Angle"): the nearest name, if near enough; or, in an English question, one word of seven
  letters or more that is no word of the rules ("tarmagoyf"), if nearer still.

What a card brings (:func:`brought`): the concepts of its keywords, types, ability shapes
and the concepts its Oracle text names (:mod:`.link`), each with a weight by how the card
has it (:data:`WEIGHTS`); search multiplies them by each concept's specificity and by
:data:`kb.search.rank.CARD`, below the asker's own words.
"""

from __future__ import annotations

import re

from .names import POSSESSIVE_FIRST, STEM, Found, NameIndex, card_text, norm, stems

MAX_NAME_WORDS = 8
MAX_CARDS = 6  # a question naming more: the first six
WEIGHTS = {"keyword": 0.7, "kind": 0.7, "shape": 0.7, "type": 0.3, "mention": 1.0}  # (kb.search.rank: how they were set)
_BRACKETS = re.compile(r"\[\[([^\[\]\n]{1,150}?)\]\]|\[([^\[\]\n]{1,150}?)\]")
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")  # ("Lim-Dûl's Vault": the hyphen, then the possessive)
_POSSESSIVE = re.compile(r"['’]s?$")
_ELIDED = re.compile(r"(?:[jldnsmtc]|qu|jusqu|lorsqu|puisqu)['’](?=[^\W\d_])")  # French "j'", "l'", "qu'" ... before a name
_LOWER_ONE_WORD = 5  # a one-word name written in lower case: this long at least ("opt", "fog": English first)
_MISSPELT_ONE_WORD = 7  # a single word taken for a misspelt name: this long at least
_MISSPELT_TRIES = 8  # at most this many words looked up so (each scans the names of about its length)
_MISSPELT_CUTOFF = 0.88  # and this near a card's name (difflib's ratio; a run of capitalised words: 0.84)
_OPENERS = ".?!:;\"“«(—"  # what a sentence (or a quotation) starts after
_JOINERS = {"of", "the", "and", "a", "to", "in", "from", "for", "on", "with", "de", "la", "le", "du", "des"}
# after these, a word in lower case is a common noun ("can a counterspell that counters only spells
# ..."), not the card of that name; a name is written capitalised, or after "my", "the", "cast"
_INDEFINITE = {"a", "an", "another", "any", "each", "every", "some", "no"}
_OWNERS = {"my", "your", "their", "his", "her", "our", "opponent's", "opponents"}  # (folded: "opponent’s" too)
# a one-word face of a card of several (split, adventure, two faces) written in lower case is the
# face only right after these: in the tuning questions every other such word was English ("alive",
# "death": Alive // Well, Life // Death), where a one-word card's name in lower case was the card as
# often as not ("can I stifle the trigger", "if I fling my Courser")
_CASTING = {"cast", "casts", "casting", "recast", "copy", "copies", "counter", "counters"}


def recognise(question: str, index: NameIndex | None, common: set[str] | frozenset = frozenset(),
              lower_names: bool = True, french: bool = False) -> tuple[list[Found], list[str]]:
    """(cards named, bracketed names that are no card). ``common``: folded words that are words of
    the rules or of questions, not card names, when alone. ``lower_names``: whether a one-word
    name written in lower case counts (not in a French question: its words are French words,
    "lance", that the English card names may spell). ``french``: whether a card's French name
    written plainly counts (a French question; in brackets it always does)."""
    if index is None or not question:
        return [], []
    found: list[Found] = []
    unknown: list[str] = []
    taken: list[tuple[int, int]] = []
    for m in _BRACKETS.finditer(question):
        double = m.group(1) is not None
        asked = (m.group(1) if double else m.group(2)).strip()
        taken.append(m.span())
        if not norm(asked):
            continue
        hit = index.lookup(asked)
        how = None
        if hit is not None:
            i, kind = hit
            how = ("double brackets" if double else "brackets") + ("" if kind == "name" else f", {kind}")
        elif not all(w in common for w in norm(asked).split()):  # "[ability]", "[cost]": the rules' own words
            i = index.near(asked)
            if i is not None:
                how = "spelling"
        if how is None:
            unknown.append(asked)
            continue
        _add(found, index, i, how, asked, m.span())
    words = [_unelided(m.group(0), m.start(), m.end()) for m in _WORD.finditer(question)
             if not any(a <= m.start() < b for a, b in taken)]
    normed = [norm(w) for w, _, _ in words]
    bare = [norm(_POSSESSIVE.sub("", w)) for w, _, _ in words]  # "Keranos's" -> "keranos"
    verbs = getattr(common, "players_words", frozenset())  # players' shorthand: in lower case, the verb
    i = 0
    while i < len(words):
        matched = 0
        for n in range(min(MAX_NAME_WORDS, len(words) - i), 0, -1):
            span = words[i:i + n]
            if any(span[k + 1][1] - span[k][2] > 3 and question[span[k][2]:span[k + 1][1]].strip(" /")
                   for k in range(n - 1)):
                continue  # a name does not run across a sentence or a list ("Wear // Tear" is one name)
            key = " ".join(normed[i:i + n])
            hit = index.lookup(key, french)
            if hit is None and bare[i + n - 1] != normed[i + n - 1]:
                key = " ".join(normed[i:i + n - 1] + [bare[i + n - 1]])
                hit = index.lookup(key, french)
            if hit is None and n > 1:  # "two Platinum Angels", "three Leylines of the Void": the card, each
                key, hit = _singular(index, normed[i:i + n], french)
            opening = not question[:span[0][1]].rstrip()[-1:].strip(_OPENERS)  # the span starts a sentence
            if n == 1 and (_after_article(words, normed, i) or _names_again(found, normed[i], bare[i])):
                continue
            if hit is not None and hit[1] == "French name" and not (span[0][0][:1].isupper() and (n > 1 or not opening)):
                continue  # French names are written capitalised ("Ange de platine"); a sentence's first word is French
            if hit is None or key in common or not (hit[1] == "French name"
                                                    or _plausible(span, key.split(), common, lower_names, verbs, opening)
                                                    or (n > 1 and lower_names and (_owned_name(normed, i, n, common)
                                                                                   or _cast_name(normed, i)))):
                continue  # (a phrase of the rules, "Two-Headed Giant", is the rules' before it is a card)
            if n == 1 and hit[1] == "face" and not span[0][0][:1].isupper() and (not i or normed[i - 1] not in _CASTING):
                continue  # "keep it alive", "my death trigger": English words; "cast unwind": the face
            card, kind = hit
            start, end = span[0][1], span[-1][2]
            _add(found, index, card, {"name": "text"}.get(kind, kind), question[start:end], (start, end))
            matched = n
            break
        i += matched or 1
    _first_words(question, words, bare, found, index, common, lower_names)
    for start, end, asked in _capitalised_runs(words, found, common):
        if index.lookup(norm(asked)) is not None:
            continue  # a card's own name, declined above ("Two-Headed Giant"): no misspelling of it
        card = index.near(asked)
        if card is not None:
            _add(found, index, card, "spelling", asked, (start, end))
    if lower_names:  # one long word that is no word of the rules, misspelt ("tarmagoyf")
        covered = [f.span for f in found]
        tried = 0
        for k, ((w, start, end), key) in enumerate(zip(words, normed)):
            if tried >= _MISSPELT_TRIES:
                break
            if (len(key) >= _MISSPELT_ONE_WORD and key not in common and " " not in key
                    and key not in verbs and not _after_article(words, normed, k) and not _plural_of(key, common)
                    and not any(a <= start < b for a, b in covered) and index.lookup(key) is None):
                tried += 1
                card = index.near(w, cutoff=_MISSPELT_CUTOFF)
                if card is not None:
                    _add(found, index, card, "spelling", w, (start, end))
    # a legend's short name made of a word of another card named in full ("the Beast" beside Beast
    # Within) is that card or what it made, not the legend (The Beast, Deathless Prince)
    named = [f for f in found if f.how != "short name"]
    found[:] = [f for f in found if f.how != "short name"
                or not _names_again(named, *(w for w in norm(f.asked).split() if w != "the"))]
    found.sort(key=lambda f: f.span)
    return found[:MAX_CARDS], unknown


def _names_again(found: list[Found], *keys: str) -> bool:
    """Whether one word is a word of a card named before it: "the Colossus" after Darksteel Colossus
    is that card again, not the card whose face is named Colossus."""
    return any(key in norm(f.name).split() for f in found for key in keys)


def _first_words(question: str, words, bare: list[str], found: list[Found], index: NameIndex, common,
                 lower_names: bool) -> None:
    """A capitalised word that names no card but begins some ("Snapcaster", "Blightsteel") or is a
    short name several legends share ("Atraxa", "Edgar"): the card it begins, when only one; of
    several, the one whose Oracle text shares the question's rarer words ("Atraxa proliferates":
    Atraxa, Praetors' Voice; "Edgar's eminence": Edgar Markov), when what it shares outweighs what
    any other shares by :data:`_MARGIN` (the words weighed by their rarity in the cards' text);
    else none: "Thalia blocks it; who deals damage first?" does not say which Thalia. A word of a
    card already named ("the Swiftblade" after [Boros Swiftblade]) is that card; a French
    sentence's first word is French ("Pendant que ..."): neither is read so."""
    covered = [f.span for f in found]
    asked = None
    for k, (w, start, end) in enumerate(words):
        key = bare[k]
        if (not w[:1].isupper() or key in common or _names_again(found, key) or len(key) < _FIRST_WORD or " " in key
                or any(a <= start < b for a, b in covered)):
            continue
        if not lower_names and not question[:start].rstrip()[-1:].strip(_OPENERS):
            continue
        options = index.meanings(key)
        if key.endswith("s") and "'" not in w and "’" not in w:  # (only such a word: each option is a read)
            # a plural is no possessive: "two Angels" is not Angel's Tomb, though both fold to "angels"
            options = [o for o in options if not POSSESSIVE_FIRST.match(index.details(o)["name"])]
        if not options:
            continue
        how = "short name"
        if len(options) > 1:
            if asked is None:
                asked = stems(question) - {key[:STEM]}
            weight = sorted(((sum(index.specificity(w) for w in asked & stems(card_text(index.details(o)))), o)
                             for o in options), reverse=True)
            if weight[0][0] - weight[1][0] < _MARGIN:
                continue
            options, how = [weight[0][1]], "short name, by the question's words"
        _add(found, index, options[0], how, w, (start, end))
        covered.append((start, end))


_FIRST_WORD = 4  # a name's first word read alone: this long at least
_MARGIN = 2.5  # log-rarity: a word at most one card in twelve uses ("first" in "first strike": 1 in 27)


def _unelided(word: str, start: int, end: int) -> tuple[str, int, int]:
    """A word without the French elided word it begins with when a capital follows ("j'Ephemerate",
    "d'Aetherplasm": the card's name starts after the apostrophe)."""
    m = _ELIDED.match(word)
    if m and word[m.end()].isupper():
        return word[m.end():], start + m.end(), end
    return word, start, end


def _add(found: list[Found], index: NameIndex, card: int, how: str, asked: str, span: tuple[int, int]) -> None:
    if any(f.index == card for f in found):
        return
    details = index.details(card)
    found.append(Found(card, details["name"], details["slug"], how, asked, span, details))


def _plausible(span, normed: list[str], common, lower_names: bool = True, verbs=frozenset(),
               opening: bool = False) -> bool:
    if len(span) == 1:  # capitalised, or a word that is no word of the rules nor of questions ("stifle")
        return normed[0] not in common and (span[0][0][:1].isupper()
                                            or (lower_names and len(normed[0]) >= _LOWER_ONE_WORD
                                                and normed[0] not in verbs))
    capitals = [w[:1].isupper() for w, _, _ in span]
    if any(capitals[1:]) or (capitals[0] and not opening):  # (a sentence's first capital says nothing: "The end")
        return True
    return not all(w in common or w in _JOINERS for w in normed)


def _plural_of(key: str, common) -> bool:
    """Whether a word is the plural of a word of the rules ("goblins": a creature type, not a
    misspelt "_____ Goblin")."""
    return any(key.endswith(end) and key[:-len(end)] in common for end in ("s", "es"))


def _after_article(words, normed: list[str], k: int) -> bool:
    """Whether word ``k`` is written in lower case after "a", "any", "each" ...: a common noun."""
    return bool(k) and normed[k - 1] in _INDEFINITE and not words[k][0][:1].isupper()


def _owned_name(normed: list[str], i: int, n: int, common) -> bool:
    """A name in lower case made of the rules' words, after "my", "their" ... ("can my giant spider
    block?"), when one of its words is one the rules write only capitalised, a creature type: the
    card. "my last chance to ..." stays English: the rules write "last" and "chance" in lower case."""
    written_lower = getattr(common, "written_lower", None)
    if written_lower is None or not i or normed[i - 1] not in _OWNERS:
        return False
    return any(not written_lower(w) for w in normed[i:i + n] if w not in _JOINERS)


def _singular(index: NameIndex, normed: list[str], french: bool) -> tuple[str, tuple[int, str] | None]:
    """(key, (card, "plural")) when the words name a card with one of them in the plural ("platinum
    angels", "leylines of the void"), else (the words, None)."""
    for k, word in enumerate(normed):
        for cut in (1, 2) if word.endswith("es") else (1,):
            if len(word) - cut >= 3 and word.endswith("s") and not word.endswith("ss"):
                key = " ".join(normed[:k] + [word[:-cut]] + normed[k + 1:])
                hit = index.lookup(key, french)
                if hit is not None and hit[1] in ("name", "face"):
                    return key, (hit[0], "plural")
    return " ".join(normed), None


def _cast_name(normed: list[str], i: int) -> bool:
    """A name of several words in lower case right after a casting verb ("if i cast lightning bolt at
    ..."): the spell cast, though its words are the rules' ("lightning", "bolt")."""
    return bool(i) and normed[i - 1] in _CASTING


def _capitalised_runs(words, found: list[Found], common):
    """Runs of two or more capitalised words (joined by "of", "the" ...) that no card found covers."""
    covered = [f.span for f in found]
    run: list = []

    def flush():
        while run and (len(run[-1][0]) == 1 or run[-1][0].lower() in _JOINERS):  # "Hangerback Walker with X=2"
            run.pop()
        while run and (norm(run[0][0]) in common or run[0][0].lower() in _JOINERS):
            run.pop(0)
        if sum(1 for w, _, _ in run if w[:1].isupper()) >= 2:
            start, end = run[0][1], run[-1][2]
            if not any(a < end and start < b for a, b in covered):
                yield start, end, " ".join(w for w, _, _ in run)

    for k, word in enumerate(words):
        w, s, e = word
        gap_ok = not run or s - run[-1][2] <= 2
        if w[:1].isupper() and gap_ok:
            run.append(word)
        elif run and w.lower() in _JOINERS and gap_ok:
            run.append(word)
        else:
            yield from flush()
            run = [word] if w[:1].isupper() else []
    yield from flush()


def brought(details: dict) -> dict[str, float]:
    """concept key -> weight: what a card brings to a question (its keywords, shapes, types, mentions)."""
    return {key: WEIGHTS.get(how, 0.0) for key, how in details.get("concepts", {}).items()}


def card_types(details: dict) -> list[str]:
    """A card's card types, lower case, as the KB's concepts name them ("artifact", "creature"):
    its first face's, supertypes left out."""
    line = (details.get("type_line") or "").split("//")[0].split("—")[0]
    return [w.lower() for w in line.split() if w.lower() not in ("legendary", "basic", "snow", "world", "token")]


def read(question: str, index: NameIndex | None, common, lower_names: bool = True, french: bool = False) -> dict:
    """What the cards of ``question`` bring: ``{"rest": the question without the card names,
    "spans": [((start, end), card types) of each card named],
    "cards": [card dicts: name, slug, how, asked, type_line, text, faces, brought], "unknown": [...],
    "concepts": {key: weight}, "how": {key: keyword | type | shape | mention}, "rules": {number: weight},
    "sources": {key: [card names]}, "note": why the unknown names may be no card, or ""}``."""
    found, unknown = recognise(question, index, common, lower_names, french)
    rest, spans, pos = [], [], 0
    for f in found:
        rest.append(question[pos:f.span[0]])
        rest.append(" ")
        spans.append((f.span, card_types(f.details)))
        pos = f.span[1]
    rest.append(question[pos:])
    concepts: dict[str, float] = {}
    rules: dict[str, float] = {}
    how: dict[str, str] = {}
    sources: dict[str, list[str]] = {}
    cards = []
    for f in found:
        details = f.details
        weights = brought(details)
        for key, w in weights.items():
            if w > concepts.get(key, 0.0):
                concepts[key] = w
                how[key] = details["concepts"][key]
            sources.setdefault(key, []).append(f.name)
        for kw in details.get("keywords", []):
            if not kw.get("concept"):
                rules[kw["rule"]] = max(rules.get(kw["rule"], 0.0), WEIGHTS["keyword"])
        cards.append({
            "name": f.name, "slug": f.slug, "how": f.how, "asked": f.asked, "edition": details.get("edition"),
            "type_line": details.get("type_line", ""), "mana_cost": details.get("mana_cost", ""),
            "text": details.get("text", ""),
            "faces": [{"name": face["name"], "type_line": face.get("type_line", ""), "text": face.get("text", "")}
                      for face in details.get("faces", [])],
            "brought": {"keywords": [kw["name"] for kw in details.get("keywords", [])],
                        "types": details.get("types", []), "shapes": details.get("shapes", []),
                        "mentions": details.get("mentions", []),
                        "rules": [number for number, _ in details.get("rules", [])]},
            "keyword_concepts": [kw["concept"] for kw in details.get("keywords", []) if kw.get("concept")],
        })
    note = FRENCH_NAMES_NOTE if unknown and french and index is not None and not index.french else ""
    return {"rest": "".join(rest), "spans": spans, "cards": cards, "unknown": unknown, "concepts": concepts, "rules": rules,
            "how": how, "sources": sources, "note": note}


# a French question's bracketed name that is no card, when the card file has no French names
FRENCH_NAMES_NOTE = ("this card file has no French card names: give the English name, or build with a card file "
                     "that has them, e.g. from rulekb fetch --cards mtgjson")
