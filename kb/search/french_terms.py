"""The French names of the game's terms a French question uses and no source of the corpus gives.

The KB's concepts take their French labels from the ontology (68 terms: "capacité déclenchée",
"champ de bataille", "jeton" ...). The corpus's French texts are excerpts with no glossary, and
they title eight keyword rules only ("702.2 Contact mortel", "702.9 Vol" ...), so the keyword
abilities and actions, the steps and the variants have no French label: a French question about
the English rules ("est-ce que le lien de vie marche quand ma créature bloque ?") named no concept,
and its words matched English ones by accident ("encore" the keyword Encore, "troll" the creature
type of "Troll à deux têtes"). This table gives those concepts the names the French cards and
rules use (the keyword names printed on French cards), keyed by the KB's concept key; search reads
a French question's concepts with them (:mod:`.engine`). Only names with one meaning in a rules
question are listed; a name the ontology already gives is not repeated.
"""

from __future__ import annotations

FRENCH_TERMS: dict[str, tuple[str, ...]] = {
    # keyword abilities (702), as French cards print them
    "deathtouch": ("contact mortel",),
    "defender": ("défenseur",),
    "double-strike": ("double initiative",),
    "enchant": ("enchanter",),
    "equip": ("équipement", "équiper"),
    "first-strike": ("initiative",),
    "flash": ("flash",),
    "flying": ("vol", "volant", "volante"),
    "haste": ("célérité",),
    "hexproof": ("défense talismanique",),
    "indestructible": ("indestructible",),
    "intimidate": ("intimidation",),
    "landwalk": ("traversée des terrains",),
    "lifelink": ("lien de vie",),
    "protection": ("protection",),
    "reach": ("portée",),
    "shroud": ("linceul",),
    "trample": ("piétinement",),
    "vigilance": ("vigilance",),
    "menace": ("menace",),
    "prowess": ("prouesse",),
    "flashback": ("flashback",),
    "cascade": ("cascade",),
    "kicker": ("kicker",),
    "cycling": ("recyclage",),
    "convoke": ("convocation",),
    "delve": ("fouille",),
    "persist": ("persistance",),
    "undying": ("immortalité",),
    "exalted": ("exaltation",),
    "infect": ("infection",),
    "crew": ("équipage", "piloter"),
    "ninjutsu": ("ninjutsu",),
    "madness": ("folie",),
    "dredge": ("dragage",),
    "storm": ("déluge",),
    "morph": ("mue",),
    "evoke": ("évocation",),
    "overload": ("surcharge",),
    "suspend": ("suspension",),
    "changeling": ("changelin",),
    # keyword actions (701)
    "regenerate": ("régénérer", "régénération"),
    "scry": ("regard",),
    "mill": ("meuler",),
    "fight": ("se battre",),
    "goad": ("inciter", "incité", "incitée"),
    "proliferate": ("proliférer", "prolifération"),
    "sacrifice": ("sacrifier", "sacrifice"),
    "destroy": ("détruire",),
    "counter": ("contrecarrer", "contrecarré", "contré", "contrer"),
    "discard": ("défausser",),
    "transform": ("transformer", "transformé"),
    "investigate": ("enquêter",),
    "surveil": ("surveiller",),
    "explore": ("explorer",),
    # turn, combat and game
    "upkeep": ("entretien", "étape d'entretien"),
    "draw-step": ("étape de pioche",),
    "cleanup": ("étape de nettoyage", "nettoyage"),
    "end-step": ("étape de fin",),
    "combat-damage": ("blessures de combat", "dégâts de combat"),
    "priority": ("priorité",),
    "summoning-sickness": ("mal d'invocation",),
    "mulligan": ("mulligan",),
    "state-based-action": ("actions basées sur un état", "action basée sur un état"),
    "replacement-effect": ("effet de remplacement",),
    "prevention-effect": ("effet de prévention",),
    "layer": ("couche",),
    "poison-counter": ("marqueur poison",),
    "mana-pool": ("réserve de mana",),
    "legend-rule": ("règle des légendes",),
    "life-life-total": ("points de vie", "total de points de vie"),
    "attacking-creature": ("créature attaquante",),
    "blocking-creature": ("créature bloqueuse", "bloqueur"),
    "mana-value": ("valeur de mana",),
    # variants
    "two-headed-giant": ("troll à deux têtes",),
    "monarch": ("monarque",),
    "commander": ("commandant",),
    "commander-tax": ("taxe de commandant",),
}
