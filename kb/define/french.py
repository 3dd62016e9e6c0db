"""The French reader: a rule sentence -> (concept, aspect, value, members, qualifier, language) tuples,
with English concept keys (through the lexicon) so French and English statements compare."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..rdf.concepts import concept_key
from .common import Reader, _article, _clean, _concept_labels, _join, _ontology_keys

# --------------------------------------------------------------------------
# French

# French terms the ontology has no label for (keys are read like rule text:
# lower case, accents and plurals aside); explicit entries win over the
# ontology's, so historical terms keep their own keys ("en jeu" -> in-play).
_FR_TERMS = {
    "en jeu": "in-play", "zone en jeu": "in-play", "retiré de la partie": "removed-from-the-game",
    "tribal": "tribal", "type": "type",
    "indicateur": "marker", "personne": "person", "joueur actif": "active-player",
    "blessure de combat": "combat-damage", "multicolore": "multicolored",
    "blanc": "white", "bleu": "blue", "noir": "black", "rouge": "red", "vert": "green", "incolore": "colorless",
    "arpenteur": "planeswalker", "du monde": "world", "mondial": "world",
    "capacité déclenchée retardée": "delayed-triggered-ability", "capacité d'évasion": "evasion-ability",
    "type de permanent": "permanent-type", "type de carte": "card-type",
    "élément d'une carte": "part-of-a-card", "composante d'une carte": "part-of-a-card",
    "illustration": "illustration", "ligne de type": "type-line", "boîte de texte": "text-box",
    "illustrateur": "illustration-credit", "nom de l'illustrateur": "illustration-credit",
    "texte légal": "legal-text", "numéro de collection": "collector-number",
    "nombre de collection": "collector-number", "force et endurance": "power-and-toughness",
    "contact mortel": "deathtouch", "défenseur": "defender", "défense talismanique": "hexproof",
    "traversée des terrains": "landwalk", "piétinement": "trample", "vol": "flying", "célérité": "haste",
    "vigilance": "vigilance", "effet basé sur un état": "state-based-effect", "marqueur": "counter",
    "capacité statique": "static-ability", "sort": "spell", "jeton": "token", "carte": "card", "copie": "copy",
    "effet": "effect", "effet de remplacement": "replacement-effect", "capacité de sort": "spell-ability",
}

# owner / controller values: normalised French -> the English phrase of the same meaning
_FR_PHRASES = {
    "joueur qui a commencé la partie avec cette carte dans son paquet":
        "player who started the game with it in their deck",
    "joueur qui a commencé la partie avec elle dans son deck": "player who started the game with it in their deck",
    "joueur qui contrôle le sort ou la capacité qui le met en jeu":
        "player who controlled the spell or ability that put it into play",
    "joueur qui le met en jeu": "player who put it into play",
    "joueur qui l'a mis en jeu": "player who put it into play",
    "propriétaire de la carte qui représente ce sort": "owner of the card that represents it",
    "propriétaire de la carte qui représente ce permanent": "owner of the card that represents it",
    "propriétaire de la carte qui le représente": "owner of the card that represents it",
    "contrôleur de l'effet qui l'a créée": "controller of the effect that created it",
    "contrôleur de l'effet qui l'a créé": "controller of the effect that created it",
    "joueur qui l'a joué": "player who played it",
    "joueur qui a joué cette capacité": "player who played it",
    "joueur qui l'a jouée": "player who played it",
    "joueur qui l'a lancé": "player who cast it",
    "joueur qui l'a activée": "player who activated it",
    "joueur qui contrôlait sa source lorsqu'elle s'est déclenchée":
        "player who controlled its source when it triggered",
    "joueur qui contrôlait le sort ou la capacité qui l'a créée":
        "player who controlled the spell or ability that created it",
    "joueur sous le contrôle duquel il est arrivé sur le champ de bataille":
        "player under whose control it entered the battlefield",
    "joueur l'ayant mise sur la pile": "player who put it on the stack",
    "joueur qui l'a mis sur la pile": "player who put it on the stack",
    "joueur sous le contrôle duquel il a été mis sur la pile": "player under whose control it was put on the stack",
    "joueur qui l'a créé": "player who created it",
}

_FR_LOCATIONS = {
    ("sur", "la", "pile"): "on-the-stack",
    ("sur", "le", "champ", "de", "bataille"): "on-the-battlefield",
    ("en", "jeu"): "in-play",
    ("dans", "la", "partie"): "in-the-game",
    ("disputant", "une", "partie"): "in-the-game",
    ("prenant", "part", "a", "la", "partie"): "in-the-game",
    ("dans", "la", "zone", "de", "commandement"): "in-the-command-zone",
}
_FR_ARTICLES = {"un", "une", "des", "le", "la", "l'", "les", "d'", "de", "du", "son", "sa", "ses", "leur", "leurs"}
_FR_BOUNDARY = {
    "qui", "que", "qu'", "dont", "où", "avec", "sans", "lorsque", "lorsqu'", "quand", "pour", "par", "à", "au",
    "aux", "mais", "même", "bien", "si", "s'il", "ou", "et", "ni", ",", ";", ":", ".", "—", "utilisé",
    "utilisée", "placé", "placée", "imprimé", "imprimée", "qui", "ne", "n'", "n'est", "est", "sont",
    "modifiant", "interagissant", "représentant", "disputant", "sur", "dans", "en", "sous", "entre",
}
_FR_KEEP = {"dans", "sous", "pas", "mais", "temps", "corps", "sans", "plus", "fois", "tous", "tres", "vers",
            "apres", "depuis", "alors", "jamais", "moins", "puis", "ailleurs", "parmi", "hors", "chez", "autres"}
_FR_START_REJECT = re.compile(
    r"^(?:Si|S'il|Quand|Lorsque|Lorsqu'|Dans|Chaque|Tout|Toute|Tous|Toutes|Certains|Certaines|Aucun|Aucune|"
    r"Cette|Ce|Cet|Ces|Il|Elle|Ils|Elles|Seul|Seuls|Seule|Pour|Comme|À|A|Sauf|Même|Cependant|Néanmoins|"
    r"Mais|Une fois|Toutefois|Ainsi|Enfin|Ensuite|Puis|Premièrement|Deuxièmement|Notez|Cela|Ceci|On)\b")
_FR_NUMBERS = {"deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix", "onze", "douze"}


def _fold(word: str) -> str:
    return unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode("ascii")


def _fr_words(text: str) -> list[str]:
    """Lower-case words, accents and plurals aside, elisions split: "d'une
    carte" -> ["d'", "une", "carte"]."""
    text = _clean(text).lower().replace("’", "'")
    text = re.sub(r"\b([dlsnjmtc]|qu|lorsqu|jusqu)'", r"\1' ", text)
    words = re.findall(r"[a-zà-ÿ0-9][\w'-]*'?|[,;:.\"—]", text)
    return [_fr_singular(_fold(w)) for w in words]


def _fr_singular(word: str) -> str:
    if word in _FR_KEEP or len(word) <= 3 or word.endswith("ss") or not word.isalpha() and "-" not in word:
        return word
    if word.endswith("aux") and len(word) > 4:
        return word[:-3] + "al"
    return word[:-1] if word.endswith(("s", "x")) else word


# the word sets above, read the way _fr_words reads text
_FR_ARTICLES = {_fr_singular(_fold(w)) for w in _FR_ARTICLES}
_FR_BOUNDARY = {_fr_singular(_fold(w)) for w in _FR_BOUNDARY}


def french_lexicon(labels: dict[str, dict]) -> dict[tuple[str, ...], str]:
    """French labels (normalised words) -> English concept key: the ontology's labels,
    :data:`_FR_TERMS` taking precedence."""
    french: dict[tuple[str, ...], str] = {}
    for key, by_lang in labels.items():
        for label in by_lang.get("fr", []):
            french.setdefault(tuple(_fr_words(label)), key)
    for term, key in _FR_TERMS.items():
        french[tuple(_fr_words(term))] = key
    return french


@cache
def _lexicon() -> dict[tuple[str, ...], str]:
    return french_lexicon(_concept_labels())


def _fr_term(words: list[str], i: int) -> tuple[str, int, bool] | None:
    """The longest known term at words[i:] -> (English key, next index, mapped)."""
    lexicon = _lexicon()
    for n in range(min(7, len(words) - i), 0, -1):
        key = lexicon.get(tuple(words[i : i + n]))
        if key:
            return key, i + n, True
    return None


class _French(Reader):
    """Reads one French sentence (see :func:`extract`)."""

    UNLESS = re.compile(r"\(à moins qu'il ne s'agisse d'(?:un|une) ([a-zà-ÿ -]+?)\s*[;)]")
    BY_DEFAULT = re.compile(r"Par défaut,\s+")
    START_REJECT = _FR_START_REJECT

    def _prepare(self, s: str) -> str:
        return re.sub(r"\b([ld])\((?=[a-zà-ÿ])", r"\1'", s)  # "l(illustration": a typo for l'

    def _trim(self, s: str) -> str:
        return re.sub(r"^(?:Notamment|De même|En outre),\s+", "", s.rstrip(" ."))

    def _after_default(self, s: str) -> str:
        return s[:1].upper() + s[1:]

    @staticmethod
    def _unless(text: str) -> str:
        words = _fr_words(text)
        term = _fr_term(words, 0)
        return "unless-" + (term[0] if term and term[1] == len(words) else concept_key(text))

    @staticmethod
    def _clauses(s: str) -> list[str]:
        parts = []
        for piece in re.split(r"\s*;\s*", s):
            parts.extend(re.split(r",? (?:et|mais) (?=(?:un|une) [a-zà-ÿ-]+(?: [a-zà-ÿ-]+){0,2} (?:est|n'est)\b)",
                                  piece))
        return [p.strip() for p in parts if p.strip()]

    # -- lists ---------------------------------------------------------------

    def _members(self, s: str) -> list[tuple] | None:
        """ "Les types de cartes sont ...", "Il y a cinq types de permanent : ..." """
        m = re.match(r"^(?:Les|les) ([a-zà-ÿ][a-zà-ÿ' -]*?) sont\s*:?\s+(.+)$", s)
        qualifier, aspect = "", "members"
        if m:
            subject, listed = m.group(1), m.group(2)
        else:
            m = re.match(r"^Il (?:existe|y a) (?:(normalement) )?(\w+) ([a-zà-ÿ][a-zà-ÿ' -]*?)\s*:\s*(.+)$", s)
            if not m or m.group(2) not in _FR_NUMBERS:
                return None
            qualifier, subject, listed = "normally" if m.group(1) else "", m.group(3), m.group(4)
        words = [w for w in _fr_words(subject) if w not in _FR_NUMBERS]
        term = _fr_term(words, 0)
        if not term:
            return None
        key, end, _ = term
        # the rest may only name the possessor: "caractéristiques d'un objet"
        if end < len(words) and not (words[end] in ("d'", "de", "du") and len(words) - end <= 3):
            return None
        members = self._list(listed)
        if members is None or len(members[0]) < 2:
            return None
        return [(key, aspect, "", members[0], qualifier, "en" if members[1] else "fr")]

    @staticmethod
    def _list(text: str) -> tuple[tuple[str, ...], bool] | None:
        """ "son nom, son coût de mana, ... et son endurance" -> (keys, all mapped)."""
        if re.search(r"\b(?:et/ou|est|sont|qui|que|peut|peuvent|si)\b|[{}:\[\]\"]", text):
            return None
        raw = [p.strip() for p in re.split(r"\s*,\s*", text.strip()) if p.strip()]
        raw = [q for p in raw for q in re.split(r"\s+(?:et|ou)\s+", re.sub(r"^(?:et|ou)\s+", "", p))]
        members, mapped = [], True
        for item in raw:
            words = _fr_words(item)
            term = _fr_term(words, 0)
            while words and words[0] in _FR_ARTICLES and not (term and term[1] == len(words)):
                words = words[1:]  # "son nom", but "de base" is a term
                term = _fr_term(words, 0)
            if not words or len(words) > 5:
                return None
            if term and term[1] == len(words):
                members.append(term[0])
            else:
                members.append(concept_key(" ".join(words)))
                mapped = False
        return tuple(members), mapped

    # -- copular clauses -----------------------------------------------------

    def _creator_role(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "Le joueur qui crée un jeton est son propriétaire." """
        m = re.match(r"^Le joueur qui crée (?:un|une) (.+?) est son (propriétaire|contrôleur)$", c)
        if not m:
            return None
        role = "owner" if m.group(2) == "propriétaire" else "controller"
        return [(key, role, "player who created it", (), _join(qualifier, q), "en" if ok else "fr")
                for key, q, ok in self._subject(m.group(1))]

    def _identity(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "Le joueur actif est le joueur dont c'est le tour." """
        m = re.match(r"^(?:Le|La) (.+?) est (?:le|la|l') ?(joueur|objet|carte|permanent|sort|capacité) "
                     r"(?:dont|qui|que|qu')", c)
        if not m:
            return None
        subjects = self._subject(m.group(1))
        value = _fr_term(_fr_words(m.group(2)), 0)
        if len(subjects) != 1 or not value or not subjects[0][2]:
            return []
        return [(subjects[0][0], "is-a", value[0], (), qualifier, "en")]

    def _role(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "Le propriétaire d'un jeton est ...", "Le contrôleur d'un sort est, par défaut, ..." """
        m = re.match(r"^Le (propriétaire|contrôleur) (?:d'une?|du|de la|de l') ?(.+?) est(, par défaut,)? (.+)$", c)
        if not m:
            return None
        role = "owner" if m.group(1) == "propriétaire" else "controller"
        if m.group(3):
            qualifier = _join(qualifier, "by-default")
        return self._role_statements(m.group(2), [role], m.group(4), qualifier)

    def _passive_role(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "Une copie d'un sort est contrôlée par le joueur ..." """
        m = re.match(r"^(?:Un|Une) (.+?) est (?:à la fois )?(possédée?|contrôlée?)"
                     r"(?: et (possédée?|contrôlée?))? par (.+)$", c)
        if not m:
            return None
        roles = [("owner" if r.startswith("poss") else "controller") for r in m.group(2, 3) if r]
        return self._role_statements(m.group(1), roles, m.group(4), qualifier)

    def _role_statements(self, subject: str, roles: list[str], value: str, qualifier: str) -> list[tuple]:
        subjects = self._subject(subject)
        if not subjects:
            return []
        phrase, unless, mapped = self._role_value(value)
        if not phrase:
            return []
        return [(key, role, phrase, (), _join(qualifier, q, unless), "en" if mapped and subject_mapped else "fr")
                for key, q, subject_mapped in subjects for role in roles]

    def _role_value(self, value: str) -> tuple[str, str, bool]:
        """(English phrase, "unless-..." qualifier, mapped) of an owner/controller
        value; a phrase :data:`_FR_PHRASES` lacks stays normalised French."""
        v = value.strip().rstrip(".").lower()
        unless = ""
        m = re.search(r",? à moins (?:qu'il ne s'agisse d'|que ce ne soit )(?:un|une) ([a-zà-ÿ -]+)$", v)
        if m:
            unless, v = self._unless(m.group(1)), v[: m.start()]
        v = re.sub(r",? ou (?:le|la) .* si .*$", "", v)  # a fallback case: the main case is kept
        v = re.sub(r"^(?:la même personne que|le même que|la même que|le même|la même) ", "", v)
        v = re.sub(r"^(?:le|la|l') ?", "", v)
        v = re.sub(r"\s+", " ", v).strip(" ,")
        if not re.match(r"^(?:joueur|propriétaire|contrôleur)\b", v):
            return "", "", False
        english = _FR_PHRASES.get(v)
        return (english, unless, True) if english else (v, unless, False)

    def _subject(self, text: str, plural: bool = False) -> list[tuple[str, str, bool]]:
        """(English key, qualifier, mapped) for each concept a subject names."""
        words = _fr_words(text)
        if words and words[0] in ("un", "une", "le", "la", "l'", "les"):
            words = words[1:]
        if words[:1] == ['"'] and words[2:3] == ['"']:
            words = [words[1]]
        parts = [words]
        if "et" in words and plural:
            i = words.index("et")
            right = words[i + 1 :]
            if right and right[0] in ("le", "la", "l'", "les"):
                right = right[1:]
            parts = [words[:i], right]
        out = []
        for part in parts:
            found = self._noun(part, 0, whole=True)
            if found is None:
                return []
            key, end, location, mapped = found
            out.append((key, location, mapped))
        return out

    def _noun(self, words: list[str], i: int, whole: bool = False):
        """(key, next index, qualifier, mapped) of the noun phrase at words[i:]."""
        term = _fr_term(words, i)
        if term:
            key, j, mapped = term
        else:
            j = i
            while j < len(words) and words[j] not in _FR_BOUNDARY and words[j] not in _FR_ARTICLES \
                    and re.fullmatch(r"[a-z][a-z'-]*", words[j]) and not words[j].endswith(("ant",)):
                j += 1
            if j == i or j - i > 3:
                return None
            key, mapped = concept_key(" ".join(words[i:j])), False
        qualifier = _fr_location(words, j)
        j += next((len(loc) for loc, q in _FR_LOCATIONS.items() if q == qualifier and
                   tuple(words[j : j + len(loc)]) == loc), 0)
        if words[j : j + 1] == ["non-jeton"]:  # "un permanent non-jeton"
            qualifier, j = _join(qualifier, "unless-token"), j + 1
        if words[j : j + 4] == ["qui", "n'", "est", "pas"]:  # "un permanent qui n'est pas un jeton"
            tail = words[j + 4 :]
            if tail[:1] in (["un"], ["une"]):
                inner = _fr_term(tail, 1)
                if inner and inner[1] == len(tail):
                    qualifier, j = _join(qualifier, "unless-" + inner[0]), len(words)
        if qualifier in ("on-the-stack", "on-the-battlefield", "in-play", "in-the-game"):
            composite = concept_key(key + " " + qualifier.replace("-", " "))
            if composite in _ontology_keys():
                key, qualifier = composite, ""
        if whole and j != len(words):
            return None
        return key, j, qualifier, mapped

    def _copula(self, c: str, qualifier: str) -> list[tuple] | None:
        """ "Un sort est une carte sur la pile.", "Un marqueur n'est pas un jeton",
        "La force et l'endurance sont des caractéristiques ..." """
        m = re.match(r"^(.+?) (n'est pas|n'est|est|ne sont pas|ne sont|sont) (.+)$", c)
        if not m:
            return None
        subject_text, copula, predicate = m.groups()
        plural = "sont" in copula
        first = subject_text.split()[0].lower()
        if first not in ("un", "une", "le", "la", "les") and not first.startswith("l'") \
                and not (subject_text[0].isupper() or subject_text[0] == '"'):
            return []
        if re.search(r"\b(?:si|s'il|s'ils|sauf)\b", predicate) \
                and not re.search(r"\bmême s(?:i|'il|'ils)\b", predicate):
            return []  # conditional ("même si" concedes, it does not condition)
        subjects = self._subject(subject_text, plural=plural)
        if not subjects:
            return []
        negated = copula.startswith(("n'", "ne "))
        words = _fr_words(predicate)
        i = 0
        while i < len(words) and words[i] in ("egalement", "aussi", "elle-meme", "lui-meme", "pa", "pas", "ni",
                                              "considere", "comme"):
            i += 1
        kind = words[i : i + 4]
        if kind[:1] in (["un"], ["une"]) and kind[1:2] in (["categorie"], ["sorte"]):
            j = i + 2 + (kind[2:3] == ["speciale"])  # "une catégorie spéciale d'effets": an effect
            if words[j : j + 1] in (["d'"], ["de"]):
                words = words[:i] + ["un"] + words[j + 1 :]
        if words[i : i + 4] == ["l'", "une", "des", "personne"]:  # "l'une des personnes ..."
            items = [("person", _fr_location(words, i + 4), True)]
        else:
            items = self._predicate(words, i)
            if not items:
                return []
        singular_predicate = any(w in ("un", "une") for w in words[i : i + 3])
        if plural and not negated and len(subjects) < 2 and not singular_predicate \
                and not any(key == subject[0] for key, _, _ in items for subject in subjects):
            return []  # "Les X sont des Y" only when coordinated or Y is X's own head (as in English)
        trailing = ""
        if len(items) > 1 and items[-1][1] and not any(loc for _, loc, _ in items[:-1]):
            trailing, items[-1] = items[-1][1], (items[-1][0], "", items[-1][2])
        out = []
        for key, subject_qualifier, subject_mapped in subjects:
            lang = "en" if subject_mapped and all(mapped for _, _, mapped in items) else "fr"
            q = _join(qualifier, subject_qualifier, trailing)
            if negated:
                out.extend((key, "not-a", value, (), _join(q, loc), lang) for value, loc, _ in items)
            elif len(items) == 1:
                out.append((key, "is-a", items[0][0], (), _join(q, items[0][1]), lang))
            else:
                members = tuple(concept_key(f"{value} {loc.replace('-', ' ')}") if loc else value
                                for value, loc, _ in items)
                out.append((key, "kinds", "", members, q, lang))
        return out

    def _predicate(self, words: list[str], i: int) -> list[tuple[str, str, bool]] | None:
        """(key, location, mapped) of each noun phrase a predicate lists: "une
        carte, ou la copie d'un sort ou d'une carte, sur la pile"."""
        items: list[tuple[str, str, bool]] = []
        while i < len(words):
            location = _fr_location(words, i)
            if location and items:  # "..., sur la pile": where they all are
                items[-1] = (items[-1][0], items[-1][1] or location, items[-1][2])
                break
            if words[i] in ("un", "une", "des"):
                i += 1
            elif not items:
                return None  # "est le joueur ...", "est égale ...": not a class
            elif words[i] in _FR_BOUNDARY:
                break
            # (otherwise a list item whose article was dropped: "..., ou sort ou un permanent")
            found = self._noun(words, i)
            if found is None:
                return None
            key, i, location, mapped = found
            items.append((key, location, mapped))
            if i >= len(words) or words[i] not in ("ou", "ni", ","):
                break
            while i < len(words) and words[i] in ("ou", "ni", ","):
                i += 1
            if i < len(words) and words[i] in ("la", "le", "l'") and _fr_term(words, i + 1):
                i += 1  # "ou la copie d'un sort"
            if words[i : i + 1] in (["d'"], ["de"]) and items[-1][0].startswith("copy-of-"):
                # "la copie d'un sort ou d'une carte": the second noun shares "copie de"
                j = i + 1 + (words[i + 1 : i + 2] in (["un"], ["une"]))
                inner = _fr_term(words, j)
                if inner:
                    items.append((f"copy-of-{_article(inner[0])}-{inner[0]}", "", True))
                    i = inner[1]
                    while i < len(words) and words[i] == ",":
                        i += 1
        return items or None


def _fr_location(words: list[str], i: int) -> str:
    """The qualifier of a location phrase at words[i:] ("sur la pile"), or ""."""
    return next((q for loc, q in _FR_LOCATIONS.items() if tuple(words[i : i + len(loc)]) == loc), "")
