"""The rk: vocabulary (https://w3id.org/rulekb#) as a closed rdflib namespace.

GENERATED from ontology/rulekb.ttl by `python -m rulekb.kb.rdf.vocabgen`: do not edit by hand;
edit the Turtle and regenerate (a test fails while this file is stale).
"""

from rdflib.namespace import DefinedNamespace, Namespace
from rdflib.term import URIRef

NAMESPACE = "https://w3id.org/rulekb#"
ONTOLOGY_IRI = "https://w3id.org/rulekb"
VERSION_IRI = "https://w3id.org/rulekb/0.1.0"
VERSION = "0.1.0"


class RK(DefinedNamespace):
    """rulekb ontology 0.1.0: 46 classes, 54 object properties, 48 datatype properties, 1 annotation property, 53 individuals.

    Closed: an attribute that is not a term of the ontology raises AttributeError.
    """

    _fail = True
    _NS = Namespace(NAMESPACE)

    # Classes
    Ability: URIRef  # Something an object (or, through an effect, a player) has that lets it affect the game, or an activated or triggered ability on the stack. Only abilities on the stack are objects, so this class is not a kind of object.
    AbilityOnTheStack: URIRef  # An activated or triggered ability (or a copy of one) while it is on the stack. Such an ability is an object and has a controller, but it is not a spell.
    ActivatedAbility: URIRef  # An ability with a cost and an effect that a player may activate; most go on the stack.
    Card: URIRef  # A Magic card, or an object that a Magic card represents. Tokens, emblems and copies are not cards, even when a piece of cardboard stands for them.
    CardFace: URIRef  # One face of an Oracle card with several (a split, adventure, flip, transforming or modal double-faced card), with its own name, type line, mana cost and Oracle text.
    CardType: URIRef  # A card type; its individuals are the card types the current rules list. Every object other than an ability on the stack has one or more, even when it is not a card.
    Change: URIRef  # What happened to a rule between two consecutive editions of one language, found by aligning them: renumbered, modified (with what kind of difference), added, removed, split off another rule or merged into another. An unchanged rule has no change, only its version links.
    Characteristic: URIRef  # A kind of information that the rules count as a characteristic of an object (name, mana cost, color, ...). Its individuals are those kinds, as the current rules list them; an object may have some or all of them.
    Citation: URIRef  # A cross-reference as written in a rule, example or glossary entry (e.g. "rules 510.1c-d"), kept whether or not a rule of the same edition answers to it; without a target it is dangling. Its type is not stored: it is the range of rk:hasCitation.
    ConsistencyFinding: URIRef  # A place where one edition of the rules disagrees with itself: a glossary definition against the rules, two rules listing the same set differently, one concept defined twice, a citation whose quoted title or range is not the rule it names, a misprinted number, an obsolete term still used, a keyword with no rule, or the reasoner's inconsistency. Severity contradiction, inconsistency or notice.
    ControlledObject: URIRef  # Any object that has a controller. A defined class: a reasoner finds that spells, permanents, emblems and abilities on the stack belong to it, from what the rules say of each.
    CopyOfACard: URIRef  # An object made as a copy of a card. It is not a card, and it stops existing anywhere but on the stack or the battlefield; cast, it is a spell.
    CopyOfASpell: URIRef  # A copy of a spell put onto the stack. It is a spell although no card stands for it, and it stops existing anywhere but on the stack.
    Counter: URIRef  # A marker put on an object or a player that changes its characteristics or interacts with rules and effects. Counters are not objects and have no characteristics; a counter is not a token, and a token is not a counter.
    DocumentUnit: URIRef  # A unit of one edition that has a place in its order: a part, section, rule, example or glossary entry.
    Edition: URIRef  # One published text of the Comprehensive Rules in one language, named by language and date (e.g. en/2011-09-30). As a provenance entity it may be derived from another edition (a translation, a copy on a rules site).
    Emblem: URIRef  # An object in the command zone that has abilities and usually nothing else; the player who gets it owns and controls it. It is neither a card, a token, a spell nor a permanent, and emblem is not a card type.
    Example: URIRef  # An example paragraph that belongs to a rule in one edition.
    GameObject: URIRef  # What the rules call an object: a card, a copy of a card, a token, a spell, a permanent, an emblem, or an activated or triggered ability on the stack, and nothing else. Players, counters and zones are not objects.
    GlossaryEntry: URIRef  # A term and its definition in the glossary of one edition.
    InferredStatement: URIRef  # A statement no rule states, derived by a reasoner from the statements of one edition and the ontology; rk:derivedFrom names what it was derived from.
    Lineage: URIRef  # One rule followed across editions, even when it is renumbered: the chain of its versions found by aligning editions.
    LoyaltyAbility: URIRef  # An activated ability with a loyalty symbol in its cost, normally a planeswalker's.
    ManaAbility: URIRef  # An activated or triggered ability that can add mana, has no target and is not a loyalty ability. It does not use the stack.
    MeaningChange: URIRef  # What two consecutive editions' definitions say differently about one concept, found by comparing their definitional statements (a rewording with the same meaning is none): a different owner or controller, a changed list of members, a reversed negation, a changed kind, a concept defined, made obsolete or renamed. It names both rules where they exist.
    NotACharacteristic: URIRef  # Information about an object that the rules say is not one of its characteristics, such as its owner, its controller or whether it is tapped.
    NotAZone: URIRef  # A place the rules name that is not a zone under the current rules, such as outside the game, or the phased-out zone of older editions.
    ObjectOnTheStack: URIRef  # Any object in the stack zone. A defined class: a reasoner finds which kinds of object belong to it (spells, copies of spells, abilities on the stack).
    ObsoleteRule: URIRef  # A rule or game mechanism that older editions had and the current rules no longer have.
    OracleCard: URIRef  # A Magic card as its Oracle reference text has it, one per card name: its name, type line, mana cost, Oracle text and faces, linked to the game concepts its text and types use and to the rules that govern it. It describes a card design, not a card in a game (rk:Card).
    ParseWarning: URIRef  # A problem the parser found while reading an edition's source, with its code (rk:warningCode) and its printed line (rk:warning).
    Part: URIRef  # A top-level division of an edition, numbered with one digit (e.g. 1, game concepts).
    Permanent: URIRef  # A card or a token on the battlefield, and only that. Every permanent has an owner and a controller.
    Player: URIRef  # One of the people in a game. A player is not an object.
    Rule: URIRef  # A numbered rule or subrule as worded in one edition (e.g. 111.2 or 111.2a). The same rule in another edition or language is another resource, linked to this one by version and translation links.
    Section: URIRef  # A division of a part, numbered with three digits (e.g. 111).
    Spell: URIRef  # A card, a copy of a card or a copy of a spell while it is on the stack. Every spell has an owner and a controller.
    SpellAbility: URIRef  # Instructions followed while an instant or sorcery spell resolves.
    Statement: URIRef  # What one sentence of a rule says a concept is (a kind of something, its owner, its controller, its members, or what it is not), in a structured form that can be compared across editions and languages.
    StaticAbility: URIRef  # An ability written as a statement that is simply true; it never uses the stack.
    Supertype: URIRef  # A supertype, printed before an object's card types; its individuals are the supertypes the current rules list.
    Token: URIRef  # An object standing for a permanent that no card represents. It is created by a spell, ability or rule, its owner is the player who created it, it is not a card, and it stops existing once it is anywhere but the battlefield.
    TranslationFinding: URIRef  # Where a French rules text and the newest English edition of the knowledge base disagree, found without machine translation: an English rule with no French (missing), a French rule with no English (extra), other cited rules, another number, another card name, a sentence more or fewer, a rule whose English changed after the edition the French translates (stale), or one English term rendered two ways.
    TriggeredAbility: URIRef  # An ability with a trigger condition and an effect; when the event happens it triggers and, in most cases, goes on the stack.
    Wording: URIRef  # One wording of a rule: the consecutive editions of a lineage in which the rule kept the same number and the same text, with the dates it was in force (from the effective date of its first edition to that of the edition that changed, renumbered or removed it).
    Zone: URIRef  # A place where objects can be during a game; its individuals are the zones of the current rules.

    # Object properties
    aboutConcept: URIRef  # The concept a definitional statement defines.
    baseEdition: URIRef  # The English edition a French text translates, detected by scoring every complete English edition on evidence that needs no translation (cited rules, numbers, card names, sentences, game terms); the date a French text states is only a hint.
    baseRule: URIRef  # The rule of the base edition (the English the French translates) a translation finding compares; for a stale rule, the English wording before the change the translator has to carry over.
    changedConcept: URIRef  # The concept whose definition a change of meaning is about.
    citationTarget: URIRef  # The rule, section or part of the same edition that a citation names; a citation without one is dangling.
    controller: URIRef  # The player who controls an object. Objects on the stack or the battlefield have one, as do emblems and a few others; other objects have none. At most one.
    definedBy: URIRef  # Links a concept to a rule or glossary entry, in some edition, whose text defines it.
    definedIn: URIRef  # The rule of the older edition whose definition a change of meaning starts from (none when the concept was newly defined).
    defines: URIRef  # Links a glossary entry to the concept its term names.
    derivedFrom: URIRef  # A statement an inferred statement was derived from: together they are its explanation.
    endedBy: URIRef  # On the last wording of a lineage that ended: the change that removed the rule, or the one that merged it into another (the merged one where both are).
    findingEdition: URIRef  # The edition that disagrees with itself.
    firstEdition: URIRef  # The edition that first printed this wording (that of its rk:firstVersion): the edition whose coming into force brought it in.
    firstVersion: URIRef  # The rule of the first edition that has this wording.
    frEdition: URIRef  # The French text a translation finding is about.
    fromEdition: URIRef  # The older of the two consecutive editions a change lies between.
    fromRule: URIRef  # The rule of the older edition a change starts from; an added rule's change has none.
    frRule: URIRef  # The French rule a translation finding is about (none for an English rule missing from the French).
    governedBy: URIRef  # Links an Oracle card to a rule that governs it, in the newest complete English edition of the build: the rules defining its keywords, its kind of card, its types and its ability shapes (through those concepts' rk:definedBy).
    hasAbilityShape: URIRef  # Links an Oracle card to the kind of ability or effect a paragraph of its text has, as a concept: triggered ability (when, whenever, at), activated ability (cost: effect), static ability, spell ability, replacement effect (instead, if ... would), continuous effect (as long as); and the finer kinds the glossary names: intervening "if" clause, delayed, reflexive and mana abilities, characteristic-defining ability, modal spell or ability, prevention effect.
    hasCardKind: URIRef  # Links an Oracle card with two faces to the kind of card its faces make it, as a concept: split card, flip card, double-faced card (modal or nonmodal), adventurer card, omen card (read from the faces' type lines, costs and texts).
    hasCardType: URIRef  # Links an Oracle card to a supertype, card type or subtype of its type line that is a game concept (Legendary, Creature, Aura, Equipment ...).
    hasCitation: URIRef  # Links a rule, example or glossary entry to a cross-reference written in its text, resolved or not.
    hasExample: URIRef  # Links a rule to one of its example paragraphs.
    hasFace: URIRef  # Links an Oracle card to one of its faces (ordered by rk:faceOrder).
    hasKeyword: URIRef  # Links an Oracle card to a keyword ability or keyword action its Oracle text uses, as the concept of that name; the keyword list is the rules' own (the titled rules of the keyword actions and keyword abilities).
    hasWarning: URIRef  # A warning the parser gave about the edition's source.
    inEdition: URIRef  # The edition a part, section, rule, example or glossary entry belongs to. Not stored, implied: the edition's named graph holds the unit (GRAPH ?edition { ?rule rk:number ?n }).
    introducedBy: URIRef  # The change between consecutive editions that brought this wording in: renumbered, modified, added, or split (a rule split off another, rather than its added change); not the merged change of a rule another went into. A wording of a lineage's first edition has none.
    involvesRule: URIRef  # A rule, section, part or glossary entry of the edition that a consistency finding cites.
    inZone: URIRef  # The zone an object is in; at most one. An object outside the game is in no zone.
    keywordRule: URIRef  # Links an Oracle card to the titled rule of a keyword ability or action its text uses, in the edition the cards were linked to (also for a keyword the glossary has no concept for).
    lastVersion: URIRef  # The rule of the last edition that has this wording.
    lineage: URIRef  # The lineage a version of a rule belongs to.
    mentions: URIRef  # Links a rule (or an example, glossary entry or wording) to a concept its text uses. A rule's mentions are stated once on its wording (rk:wording) where it has one; ask for a rule's with the path rk:wording?/rk:mentions.
    mergedInto: URIRef  # The lineage of the rule this lineage's last version was merged into: its text went into that rule.
    nextVersion: URIRef  # The same rule in the next edition of the same language; the inverse of previous version. Not stored, implied (^rk:previousVersion).
    owner: URIRef  # The player an object belongs to for the game: for a card, who started the game with it (or brought it in); for a token, who created it; for a copy of a spell, who put it on the stack. At most one.
    parent: URIRef  # The unit a rule or section sits directly under in the same edition: a subrule's rule (111.2a under 111.2), a rule's section (111.2 under 111), a section's part (111 under 1).
    previousVersion: URIRef  # The same rule in the previous edition of the same language, possibly renumbered or reworded.
    redefinedIn: URIRef  # The rule of the newer edition that defines the concept differently (none when the definition is gone).
    referencedBy: URIRef  # The inverse of references: the rules, examples and glossary entries that cite this rule, section or part.
    references: URIRef  # A resolved cross-reference: the rule, section or part of the same edition that a rule, example or glossary entry cites. Not stored: it is the target of one of its citations (the property chain), and a rule also references what its examples cite: ?rule rk:hasCitation/rk:citationTarget|rk:hasExample/rk:hasCitation/rk:citationTarget ?target.
    runnerUpEdition: URIRef  # The English edition that scored best after the base edition of a French text with a different score (editions with the same text tie exactly and are not runners-up).
    splitFrom: URIRef  # The lineage of the rule this lineage's first version was split off: part of that rule's text went into a new rule.
    statedIn: URIRef  # The rule whose sentence makes the statement. A statement a rule makes is known by it: its rdf:type rk:Statement is not stored (this domain says it).
    statementContent: URIRef  # What a statement says (its rk:aboutConcept, rk:aspect, rk:value, rk:member, rk:valueConcept, rk:qualifier, rk:negated, and rk:sentence for a rule's, rk:reasoner for an inferred one), stated once in the graph graph/statements for every edition and rule that says the same. Read a statement through it: ?statement rk:statementContent/rk:aspect ?aspect.
    toEdition: URIRef  # The newer of the two consecutive editions a change lies between.
    toRule: URIRef  # The rule of the newer edition a change leads to; a removed rule's change has none.
    translationOf: URIRef  # Links a French rule to the English rule it translates.
    usEdition: URIRef  # The English edition a French text was checked against (the newest complete English edition of the knowledge base).
    usRule: URIRef  # The rule of the English edition checked against that a translation finding is about, followed through the lineages when the French translates an older edition (none for an extra French rule).
    valueConcept: URIRef  # The concept a statement's value names, when it names one (the card in 'a spell is a card'; each member of a list).
    wording: URIRef  # The wording a rule of one edition is a version of: the run of editions with its number and text, which states once what that text mentions (rk:mentions).

    # Datatype properties
    addedMember: URIRef  # A member (or value) the newer edition's definition has and the older one's does not.
    aspect: URIRef  # What a statement says about its concept: is-a (a kind of), kinds (exactly these kinds), members (exactly these members), owner, controller, or not-a.
    baseScore: URIRef  # How well a French text agrees with its base edition, from 0 to 1: the mean over its rules of the agreement of their language-independent evidence.
    changeDetail: URIRef  # What differs in a modified rule: references (only the numbers it cites, following a renumbering), typography (quotes, dashes, spacing), terminology (renamed game terms) or text (a real change of wording). For a removed rule that was only a title, the section heading it became: heading 404.
    changeKind: URIRef  # What a change is: renumbered (same text, new number), modified (text changed, possibly renumbered too), added, removed, split (part of the old rule's text went into this further new rule) or merged (this further old rule's text went into the new rule).
    citedNumber: URIRef  # One normalised rule, section or part number that a citation names; a range such as 510.1c-d gives several. Not stored, implied: the rk:number of each rk:citationTarget, and each rk:danglingNumber (rk:citationTarget/rk:number|rk:danglingNumber).
    citedText: URIRef  # A citation as written, e.g. "rules 510.1c-d" or "cf. règle 601".
    consistencyKind: URIRef  # What a consistency finding is: glossary-vs-rules, two-lists, defined-twice, citation-title, citation-range, citation-dangling, citation-obsolete, numbering, obsolete-term, undefined-keyword or reasoner.
    consistencyNote: URIRef  # What an edition lacks for the consistency check (no glossary, a glossary cut short, a partial text), so that an absence is never read as a finding.
    consistencySeverity: URIRef  # contradiction (the two statements cannot both hold), inconsistency (lists or citations that disagree) or notice (typography and numbering).
    danglingNumber: URIRef  # A number a citation names that its edition does not have: the citation is kept as written and this marks what it could not resolve.
    definition: URIRef  # The definition text of a glossary entry, tagged with the edition's language.
    definitionAspect: URIRef  # Which part of a concept's definition changed: is-a, kinds, members, owner, controller, not-a, or concept (the concept as a whole: defined, obsolete, renamed).
    editionId: URIRef  # The short id of an edition, language and date: "en/2011-09-30".
    effectiveDate: URIRef  # The date from which an edition applies, as the text states it; the value is an xsd:date.
    faceOrder: URIRef  # The position of a face on its card, from 1 (the front, or the left half).
    findingData: URIRef  # The finding as the JSON item of rulekb consistency (kind, severity, rules, texts, detail, why), so the command reads back exactly what the build found.
    findingDetail: URIRef  # What differs, in a few words (the explanation of why it is a finding is the rdfs:comment).
    findingKind: URIRef  # What a translation finding is: missing, extra, reference-mismatch, number-mismatch, name-mismatch, sentence-missing, sentence-added, stale or terminology-inconsistency.
    findingPlaces: URIRef  # The places a consistency finding cites, in order, joined by " | " ("305.4 | section 212 | glossary: Land").
    frValue: URIRef  # What the French has that the English lacks, as the finding's kind reads it: cited rules, numbers, card names, a sentence count, or each French rendering of a term with the rules using it.
    inForceFrom: URIRef  # The effective date of the first edition of a wording: the day it came into force (an xsd:date).
    inForceUntil: URIRef  # The effective date of the edition that superseded a wording (changed its text or number, or removed the rule), exclusive; a wording still in force has none (an xsd:date).
    manaCost: URIRef  # The mana cost of a card or face in mana symbols, e.g. {3}{U}{R}.
    meaningChangeKind: URIRef  # What a change of meaning is: owner-changed, controller-changed, members-changed, is-a-changed, negation-reversed, exception-changed, definition-added or -removed, concept-obsolete, -revived, -added or -removed, renamed.
    member: URIRef  # One member of the list a kinds or members statement gives, normalised.
    negated: URIRef  # True when the statement says what its concept is not.
    number: URIRef  # The normalised number of a part ("1"), section ("111"), rule ("111.2") or subrule ("111.2a"), without a trailing dot.
    oracleText: URIRef  # The Oracle text of a card or face, as the card file gives it (reminder text included).
    order: URIRef  # The position of a unit in its edition (of an example, among its rule's examples), so the edition can be read back in its printed order.
    partial: URIRef  # True when an edition is known only in part: an excerpt, a truncated copy, or some pages of a rules site.
    printedNumber: URIRef  # The number as misprinted in the source, kept when the normalised number differs from it (e.g. 432.2b printed for 423.2b).
    qualifier: URIRef  # A condition the statement holds under ('on the stack', 'by default').
    reasoner: URIRef  # The reasoner that derived an inferred statement (HermiT, OWL 2 RL).
    removedMember: URIRef  # A member (or value) the older edition's definition has and the newer one's does not.
    runnerUpScore: URIRef  # The score of the runner-up edition of a French text, on the scale of its base score.
    sentence: URIRef  # The sentence of the rule that makes the statement, as printed.
    severity: URIRef  # How much a change of meaning matters to a reader of the rules: high (a contradiction: a different owner or controller, a reversed negation), medium, low (a list gains a member), info (a renaming).
    similarity: URIRef  # How alike the two rules of a change are, from 0 to 1, after game terms renamed between the editions are evened out (1 for the same text; 0 for an added or removed rule).
    term: URIRef  # The term a glossary entry defines, as printed, tagged with the edition's language.
    text: URIRef  # The text of a rule or example as worded in its edition, tagged with the edition's language.
    typeLine: URIRef  # The type line of a card or face, e.g. "Legendary Enchantment Creature — God".
    usValue: URIRef  # What the English has that the French lacks, as the finding's kind reads it: cited rules, numbers, card names, a sentence count, or the English term rendered two ways.
    value: URIRef  # A statement's value, normalised so that a rewording compares equal (e.g. 'card', 'player who created it').
    warning: URIRef  # A problem found while reading the source, kept for the reader (e.g. a misprinted number read back, a truncated file).
    warningCode: URIRef  # What kind of problem a parse warning is, as the parser names it: truncated, date-mismatch, misprinted-number, out-of-order, unknown-line...
    wordingEditions: URIRef  # How many consecutive editions print this wording.
    wordingNumber: URIRef  # The rule number the editions of this wording print.

    # Annotation properties
    denotes: URIRef  # Links a concept to the class or individual of the game-concept layer it names (e.g. the concept "token" to rk:Token). An annotation property, so a knowledge base using it stays in OWL 2 DL.

    # Individuals
    cardTypeArtifact: URIRef  # card type: artifact
    cardTypeBattle: URIRef  # card type: battle. A permanent card type, in the rules since 2023.
    cardTypeConspiracy: URIRef  # card type: conspiracy. A card type of the Conspiracy Draft variant; such cards start the game in the command zone.
    cardTypeCreature: URIRef  # card type: creature
    cardTypeDungeon: URIRef  # card type: dungeon
    cardTypeEnchantment: URIRef  # card type: enchantment
    cardTypeInstant: URIRef  # card type: instant
    cardTypeKindred: URIRef  # card type: kindred. The card type called "tribal" until 2024; cards printed as tribal have been given errata.
    cardTypeLand: URIRef  # card type: land
    cardTypePhenomenon: URIRef  # card type: phenomenon
    cardTypePlane: URIRef  # card type: plane
    cardTypePlaneswalker: URIRef  # card type: planeswalker
    cardTypeScheme: URIRef  # card type: scheme
    cardTypeSorcery: URIRef  # card type: sorcery
    cardTypeVanguard: URIRef  # card type: vanguard
    characteristicAbilities: URIRef  # characteristic: abilities
    characteristicCardType: URIRef  # characteristic: card type. Called "type" in the characteristics list until 2007.
    characteristicColor: URIRef  # characteristic: color
    characteristicColorIndicator: URIRef  # characteristic: color indicator. Listed as a characteristic since 2011.
    characteristicDefense: URIRef  # characteristic: defense. Listed as a characteristic since 2023, with the battle card type.
    characteristicHandModifier: URIRef  # characteristic: hand modifier. Found on vanguard cards; listed as a characteristic since 2009.
    characteristicLifeModifier: URIRef  # characteristic: life modifier. Found on vanguard cards; listed as a characteristic since 2009.
    characteristicLoyalty: URIRef  # characteristic: loyalty. Listed as a characteristic since 2007.
    characteristicManaCost: URIRef  # characteristic: mana cost
    characteristicName: URIRef  # characteristic: name
    characteristicPower: URIRef  # characteristic: power
    characteristicRulesText: URIRef  # characteristic: rules text
    characteristicSubtype: URIRef  # characteristic: subtype
    characteristicSupertype: URIRef  # characteristic: supertype
    characteristicToughness: URIRef  # characteristic: toughness
    combatDamageOnTheStack: URIRef  # obsolete rule: combat damage on the stack. Older rules put combat damage on the stack as an object before it was dealt; removed in 2009.
    infoController: URIRef  # not a characteristic: controller. Who controls an object is not one of its characteristics (see the property rk:controller).
    infoEnchantedObject: URIRef  # not a characteristic: what an Aura enchants
    infoExpansionSymbol: URIRef  # not a characteristic: expansion symbol. Listed among the characteristics until the 2013 editions; the current list leaves it out, so it is no longer one.
    infoOwner: URIRef  # not a characteristic: owner. Who owns an object is not one of its characteristics (see the property rk:owner).
    infoStatus: URIRef  # not a characteristic: status. A permanent's physical state: tapped or untapped, flipped or not, face up or down, phased in or out. Status may affect characteristics but is not one.
    infoTarget: URIRef  # not a characteristic: target of a spell
    manaBurn: URIRef  # obsolete rule: mana burn. Older rules made a player lose life for mana left unspent; removed in 2009.
    outsideTheGame: URIRef  # not a zone: outside the game. Where an object is when it is in none of the game's zones (e.g. a sideboard). The rules say outside the game is not a zone.
    phasedOutZone: URIRef  # not a zone: phased-out zone. A zone of the rules until 2009, where phased-out permanents went. Today phasing is a status of a permanent on the battlefield, not a zone.
    supertypeBasic: URIRef  # supertype: basic. A land with this supertype is a basic land.
    supertypeLegendary: URIRef  # supertype: legendary. Subject to the legend rule. The earliest editions also had a "Legend" creature type, a different thing.
    supertypeOngoing: URIRef  # supertype: ongoing. Found only on scheme cards; listed among the supertypes since 2010.
    supertypeSnow: URIRef  # supertype: snow
    supertypeWorld: URIRef  # supertype: world. Subject to the world rule.
    zoneAnte: URIRef  # zone: ante. The zone of the optional ante variant, used by some older cards.
    zoneBattlefield: URIRef  # zone: battlefield. The shared zone where permanents are. Called "in play" ("en jeu") before the 2009 rules.
    zoneCommand: URIRef  # zone: command. A zone for special objects with an effect on the whole game (emblems, planes, schemes, ...); in the rules since 2009.
    zoneExile: URIRef  # zone: exile. A holding area for objects. Called "removed from the game" before the 2009 rules.
    zoneGraveyard: URIRef  # zone: graveyard. Each player's discard pile; a public zone.
    zoneHand: URIRef  # zone: hand. Where a player holds the cards they have drawn; a hidden zone.
    zoneLibrary: URIRef  # zone: library. Each player's face-down draw pile; a hidden zone.
    zoneStack: URIRef  # zone: stack. The shared zone where spells and abilities wait to resolve.
