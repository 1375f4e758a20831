"""Stage 2 on the real WordNet and GCIDE (raw/): what a player reads beside an everyday word is its everyday
meaning. One line per example: the word, its base, and the sense its definition must lead with.

Built once with a small lexicon holding the words and their bases and our real supplement (as the build of
raw/ has it). The whole-build invariants (no lost letter, no text cut mid-phrase, every everyday regular form
naming its base first) are in tests/integration/test_end_to_end.py. Examples the stage does not yet get right are marked
xfail(strict=True) with what they show instead (none today): the day one is fixed, its test says so.
"""

from __future__ import annotations

import polars as pl
import pytest

from conftest import lexicon_of
from support.paths import ROOT
from stages.sources.gcide import current_firsts
from stages.s02_definitions import build_definitions
from stages.sources.wordnet import agreeing_senses

RAW = ROOT / "raw"

# (word, base or None, what the first sense must start with)
LEADS_WITH = [
    # A regular form of an everyday base reads through it, not through an old or dialect entry of the form.
    ("SLOWS", "SLOW", "present tense of SLOW: "),
    ("GIVES", "GIVE", "present tense of GIVE: "),
    ("LENDS", "LEND", "present tense of LEND: "),
    ("ONES", "ONE", "plural of ONE: a single person or thing"),  # the table; the rules: the smallest whole number
    ("SHOTS", "SHOT", "plural of SHOT: "),
    ("WHITES", "WHITE", "plural of WHITE: "),
    ("JOINED", "JOIN", "past tense of JOIN: "),
    ("HOOKS", "HOOK", "plural of HOOK: a curved or bent implement"),  # the reviewers' main sense of HOOKS
    ("BONES", "BONE", "plural of BONE: rigid connective tissue"),
    # In the part of speech the everyday form has.
    ("SELLS", "SELL", "present tense of SELL: "),
    ("FILLS", "FILL", "present tense of FILL: "),
    ("TRUDGES", "TRUDGE", "present tense of TRUDGE: "),
    ("LEADS", "LEAD", "present tense of LEAD: "),
    # Dual use: the main-sense table's choice first (raw/main_senses.tsv, judged blind): CHINK a narrow opening,
    # before the sound GCIDE's first current sense would have put first (the agreement rule).
    ("CHINK", None, "a narrow opening"),
    # A base whose senses the corpus never tagged leads with the one GCIDE's first current sense agrees with.
    ("STY", None, "a pen for swine"),
    # Derivations in the derived word's part of speech.
    ("REPLEDGE", "PLEDGE", "PLEDGE again [v]"),
    ("DRAFTINESS", "DRAFTY", "the quality of being DRAFTY: not airtight [n]"),
    ("TERMINABLY", "TERMINABLE", "in a way that is TERMINABLE: "),
]

# Issue 43's examples: what a player read before (in the comment) and the sense that leads now, by the reviewed
# main-sense table (raw/main_senses.tsv) or by WordNet's own evidence (tag counts, circular glosses, forms).
ISSUE_43 = [
    ("GOLD", None, "a soft yellow malleable ductile"),  # coins made of gold
    ("DOCK", None, "landing in a harbor"),  # an enclosure in a court of law
    ("LID", None, "a movable top or cover"),  # either of two folds of skin
    ("HAIL", None, "precipitation of ice pellets"),  # praise vociferously
    ("TABLE", None, "a piece of furniture"),  # a set of data arranged in rows and columns
    ("COD", None, "major food fish"),  # the vessel that contains the seeds of a plant
    ("TUNICS", "TUNIC", "plural of TUNIC: any of a variety of loose fitting cloaks"),  # a covering membrane
    ("SKIPPERS", "SKIPPER", "plural of SKIPPER: an officer who is licensed to command"),  # a student who fails
    ("FRYING", "FRY", "present participle of FRY: cook on a hot surface"),  # be excessively hot
    ("HEAL", None, "provide a cure for"),  # heal or recover (circular)
    ("PULL", None, "apply force so as to cause motion"),  # cause to move by pulling (circular)
    ("SAME", None, "closely similar"),  # same in identity (circular)
    ("PUSS", None, "informal terms referring to a domestic cat"),  # plural of PUS
    ("TRIOS", "TRIO", "plural of TRIO: three performers or singers"),  # the cardinal number (the table)
    ("GENUS", None, "(biology) taxonomic group containing"),  # ... / plural of GENU (its plural is GENUA)
    ("GOAD", None, "goad or provoke,as by constant criticism"),  # give heart or courage to (the table: provoke)
    ("AID", None, "the activity of contributing to the fulfillment of a need"),  # the table: help (the noun)
    # A form leads with the reading the table gives it, whatever its base's own main sense (PANT breathes).
    ("PANTS", "PANT", "plural of PANT: (usually in the plural) a garment"),  # breathe noisily
    ("CHIPS", "CHIP", "plural of CHIP: a thin crisp slice of potato"),  # a small fragment
    ("MAINS", "MAIN", "plural of MAIN: a principal pipe"),  # any very large body of (salt) water
]

# Not met: the first sense WordNet lists (most frequent in its corpus, or in no order when none was tagged)
# is still shown. The untagged rule tried first (a concrete sense first) was judged no better on two samples
# (tests/data/definitions_untagged_rule_judged.tsv) and is not kept. The agreement rule kept (GCIDE's first
# current sense picks among untagged senses) does not reach these: GOLD and CHURCH were tagged (WordNet's raw
# files hold no per-sense counts to call them tiny); GCIDE's first entry is another sense (GOLD a marigold,
# MOLE the skin spot, which now leads, PUNTER a gambler at faro) or agrees with WordNet's first (VANILLA the
# plant, SHAVER one who shaves) or with two senses at once (COCK: the male bird and the male chicken); SUNNY
# has one sense in WordNet; ODD was tagged.
# Met since issue 43 (the reviewed table, raw/main_senses.tsv), the nine strict xfails of before.
MAIN_SENSE = [
    ("GOLD", None, "a soft yellow malleable ductile", "coins made of gold"),
    ("MOLE", None, "small velvety-furred burrowing mammal", "a small congenital pigmented spot on the skin"),
    ("COCK", None, "adult male chicken", "tilt or slant to one side"),
    ("VANILLA", None, "a distinctive fragrant flavor", "any of numerous climbing plants"),
    ("SHAVER", None, "a razor powered by an electric motor", "an adult male who shaves"),
    ("CHURCHES", "CHURCH", "plural of CHURCH: a place for public", "plural of CHURCH: one of the groups"),
    ("PUNTERS", "PUNTER", "plural of PUNTER: someone who bets", "plural of PUNTER: someone who propels"),
    ("ODDER", "ODD", "comparative of ODD: beyond or deviating", "comparative of ODD: not divisible by two"),
    # WordNet has one sense of SUNNY (cheer), and HELL's abode of the dead only as `Hell`, a proper noun: the
    # table names GCIDE's sense (gcide:sunny:1, gcide:hell:1), and the word reads GCIDE's text.
    ("SUNNY", None, "Of or pertaining to the sun", "bright and pleasant; promoting a feeling of cheer"),
    ("HELL", None, "The place of the dead", "any place of pain and turmoil"),
]

# Analyses that cannot be: no definition that says so.
NEVER = {
    "INTIMATER": "comparative of INTIMATE",  # -er makes comparatives of words of one or two syllables
    "ENAMELLER": "comparative of ENAMEL",
    "NEANDERTALER": "comparative of NEANDERTAL",
    "RABBINICS": "plural of RABBINIC",
    "SEED": "past tense of SEE",  # SEE's past is SAW: SEED's own entry stays
    "BATTALIA": "plural of BATTALION",  # no Latin plural of an English word leads
    "COMMA": "plural of COMMON",
}

# GCIDE's lost letters and cut text (before: `Leucorrh?a.`, `... used for mi?ing the clay`, `Corybants
# (-b?nts), ...`, `... parable of the`, `A body of picked troops; as`).
CLEAN = ["WHITES", "BLUNGER", "CORYBANT", "DIVES", "GUARDS", "ASHLER", "DARIC"]

WORDS = sorted(
    {w for w, *_ in LEADS_WITH + MAIN_SENSE + ISSUE_43}
    | {b for _, b, *_ in LEADS_WITH + MAIN_SENSE + ISSUE_43 if b}
    | {"PUS", "GENU", "GENUA", "TRIO", "EPOCH", "EPOCHS", "SPANK", "SEW", "SEWED", "CLAP", "CLAPS", "WILLIE", "WILLIES"}
    | set(NEVER)
    | {"INTIMATE", "ENAMEL", "NEANDERTAL", "RABBINIC", "SEE", "BATTALION", "DIVE", "GUARD", "CLOTHE", "CLOTHES"}
    | {"BORING", "BORE", "COMMA", "COMMON"}
    | set(CLEAN)
)


def folder(name: str) -> dict[str, bytes]:
    return {f"{name}/{p.name}": p.read_bytes() for p in (RAW / name).iterdir()}


@pytest.fixture(scope="module")
def defined() -> dict[str, str | None]:
    lexicon = lexicon_of(WORDS, WORDS)
    supplement = {"supplement/definitions.txt": (RAW / "supplement" / "definitions.txt").read_bytes()}
    table = build_definitions(
        lexicon,
        folder("wordnet"),
        supplement,
        ["csw", "owl", "supplement", "wordnet", "gcide"],
        gcide=folder("gcide"),
        main_senses={"main_senses.tsv": (RAW / "main_senses.tsv").read_bytes()},
    )["definitions"]
    return dict(table.select("word", "definition").rows())


@pytest.mark.parametrize("word, base, start", LEADS_WITH, ids=[w for w, *_ in LEADS_WITH])
def test_the_everyday_sense_leads(defined, word, base, start):
    assert (defined[word] or "").startswith(start), defined[word]


@pytest.mark.parametrize("word, base, start", ISSUE_43, ids=[w for w, *_ in ISSUE_43])
def test_issue_43_example(defined, word, base, start):
    assert (defined[word] or "").startswith(start), defined[word]


def test_a_word_whose_main_sense_wordnet_says_only_in_a_circle_reads_our_text_and_so_do_its_forms(defined):
    # WordNet: SEW `fasten by sewing`, CLAP `clap one's hands together`; ours (raw/supplement/definitions.txt).
    assert defined["SEW"].startswith("to join or fasten with stitches")
    assert defined["CLAPS"].startswith("present tense of CLAP: to strike the palms of the hands together")
    # SEWED has an entry of its own in WordNet (`fastened with stitches`); it follows the base, as it followed
    # WordNet's SEW, because WordNet tagged SEW as a verb.
    assert defined["SEWED"].startswith("past tense of SEW: to join or fasten"), defined["SEWED"]
    # A base of ours WordNet lacks in that part of speech (WILLIE) does not lead over the form's own entry.
    assert defined["WILLIES"].startswith("feelings of uneasiness"), defined["WILLIES"]


def test_a_part_of_speech_said_only_in_a_circle_is_left_out(defined):
    # SPANK's verb senses are `give a spanking to` and `subject to a spanking`: the noun alone is said.
    assert defined["SPANK"] == "a slap with the flat of the hand [n]"


@pytest.mark.parametrize("word, base, start, shown", MAIN_SENSE, ids=[w for w, *_ in MAIN_SENSE])
def test_the_main_sense_of_a_base_leads_now(defined, word, base, start, shown):
    assert (defined[word] or "").startswith(start), defined[word]


def test_no_plural_the_rules_cannot_make(defined):
    assert "plural of PUS" not in defined["PUSS"] and "GENU:" not in defined["GENUS"]
    assert defined["GENUA"].startswith("plural of GENU: ")
    assert defined["EPOCHS"].startswith("plural of EPOCH: ")  # -ch said k takes a bare -s


def test_another_dictionary_picks_among_untagged_senses():
    table = pl.DataFrame(
        {
            "lemma": ["sty", "sty", "sty", "tagged", "tagged", "tie", "tie", "tie"],
            "pos": ["n", "n", "v", "n", "n", "n", "n", "n"],
            "tagged": [0, 0, 0, 1, 1, 0, 0, 0],
            "sense": [0, 1, 0, 0, 1, 0, 1, 2],
            "gloss": [
                "an infection of the sebaceous gland of the eyelid",
                "a pen for swine",
                "enclose in a pen",
                "a pen for swine",
                "a pigpen for swine",
                "a knot",
                "a cord or string for binding",
                "a string or cord that binds",
            ],
        }
    )
    other = pl.DataFrame(
        {
            "lemma": ["sty", "sty", "tagged", "tie"],
            "pos": ["n", "v", "n", "n"],
            "gloss": [
                "A pen or inclosure for swine.",
                "To shut up in a sty.",
                "A pigpen for swine.",
                "A cord, a string.",
            ],
        }
    )
    # STY's noun: two words more than any other sense; its verb has one sense; a tagged lemma keeps WordNet's
    # order; two senses that agree as well (TIE) leave it too.
    assert agreeing_senses(table, other).rows() == [("sty", "n", 1)]
    assert agreeing_senses(table, other, margin=3).height == 0


@pytest.mark.parametrize("word", sorted(NEVER))
def test_no_impossible_analysis(defined, word):
    assert NEVER[word] not in (defined[word] or ""), defined[word]


def test_both_readings_when_both_are_everyday(defined):
    verb, noun = defined["LEADS"].split(" / ")[:2]
    assert verb.startswith("present tense of LEAD: ") and verb.endswith("[v]")
    assert noun.startswith("plural of LEAD: ") and noun.endswith("[n]")
    assert " / " not in defined["SELLS"]  # SELL's noun was never tagged in the corpus


def test_a_slur_sense_follows_labelled(defined):
    senses = defined["CHINK"].split(" / ")
    assert not senses[0].startswith("(ethnic slur)")
    assert senses[-1].startswith("(ethnic slur) ")


def test_a_current_own_entry_follows_and_an_old_one_goes(defined):
    # BORING's `dull` is current and everyday: the reviewers' main sense (raw/main_senses.tsv) leads.
    assert defined["BORING"].startswith("so lacking in interest")
    assert defined["JOINED"].startswith("past tense of JOIN: ") and "married" in defined["JOINED"]
    assert "Milk sickness" not in defined["SLOWS"] and "Fetters" not in defined["GIVES"]
    assert defined["CLOTHES"].startswith("present tense of CLOTHE: ") or defined["CLOTHES"].startswith("clothing")


@pytest.mark.parametrize("word", CLEAN)
def test_no_lost_letter_and_no_text_cut_mid_phrase(defined, word):
    text = defined[word] or ""
    assert "?" not in text
    for sense in text.split(" / "):
        body = sense.rsplit(" [", 1)[0]
        assert not body.endswith((",", " as", " the", " and", " as.", " the.", " and.")), sense


def test_gcide_first_current_sense_skips_old_and_dialect_senses():
    entry = (
        "Sty \\Sty\\, n. [AS. stig.]\n   1. A stair. [Obs.]\n      [1913 Webster]\n\n"
        "   2. A small kiln. [Prov. Eng.]\n      [1913 Webster]\n\n"
        "   3. A pen or inclosure for swine.\n      [1913 Webster]\n"
    )
    table = pl.DataFrame({"lemma": ["sty", "sty"], "entry": [entry, entry], "order": [1, 2]})
    assert current_firsts(table, pl.Series(["sty"])).rows() == [("sty", "n", "A pen or inclosure for swine.")]
    assert current_firsts(table, pl.Series(["pen"])).height == 0


def test_a_gcide_key_of_the_table_gives_the_word_gcides_text_and_its_forms_keep_wordnets():
    # A table that names GCIDE's first sense of HELL (the abode of the dead, which WordNet writes only as
    # `Hell`, a proper noun): HELL reads GCIDE's text; HELLS, a form, still reads WordNet's HELL (a form read
    # through GCIDE could meet GCIDE's own entry of it: EXCEPTING `but properly a participle.`).
    words = ["HELL", "HELLS", "EXCEPT", "EXCEPTING"]
    table = build_definitions(
        lexicon_of(words, words),
        folder("wordnet"),
        {},
        ["wordnet", "gcide"],
        gcide=folder("gcide"),
        main_senses={"t.tsv": b"word\tkey\treason\nHELL\tgcide:hell:1\tabode\nEXCEPT\tgcide:except:1\tprep\n"},
    )["definitions"]
    got = dict(table.select("word", "definition").rows())
    source = dict(table.select("word", "definition_source").rows())
    assert got["HELL"].startswith("The place of the dead") and source["HELL"] == "gcide"
    assert got["EXCEPT"].startswith("With exclusion of") and source["EXCEPT"] == "gcide"
    assert got["HELLS"].startswith("plural of HELL: any place of pain"), got["HELLS"]
    assert got["EXCEPTING"].startswith("present participle of EXCEPT: "), got["EXCEPTING"]
