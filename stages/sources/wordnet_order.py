"""Which of a WordNet lemma's senses leads, per part of speech, and which part of speech leads (stage 2, not a
stage itself): stages/sources/wordnet.py's `glosses` orders its senses by `leading`.

Evidence first (docs/definitions.md, "The main sense first"), each step a sort key, in this order:
1. a circular sense after the others, whoever chose it: one whose text names the word or its stem and says
   little more (HEAL `heal or recover`, PULL `cause to move by pulling`, SAME `same in identity`, which the
   reviewers chose for SAME: its meaning, but a text that tells a player nothing); a part of speech none of
   whose senses says more than the word (SEW `fasten by sewing`, SPANK `give a spanking to`) is not shown
   (`unsaid`): the word's other parts of speech, or another dictionary's text, or none;
2. the reviewed main-sense table's choice (raw/main_senses.tsv: `chosen`), its part of speech first too;
3. a slur or vulgar sense after the others (labelled: wordnet.glosses), and a sense in the usage domain of
   disparagement, archaism or slang (LATER_DOMAINS) after the plain ones;
4. where the corpus tagged none, the sense GCIDE's first current sense agrees with (wordnet.agreeing_senses);
5. WordNet's order.
Tried and not kept: where the first sense's count is thin (fewer than 5 tags, or no more than the second's,
cntlist.rev), a sense whose synset the word heads first (LID's cover, not EYELID's synset). On the judged
samples of `make audit` it changed 40 everyday words, most for the worse (ADMIRAL a butterfly, FOIBLES a
sword's blade, CLOTHES `furnish with power`, HISS `move with a whooshing sound`): the table decides LID.
Parts of speech: by the corpus's total tags of their senses (AID: the verb, 37 tags, before the noun's 25),
then by how many senses it tagged, then n, v, adj, adv.
"""

from __future__ import annotations

import polars as pl

LATER_DOMAINS = ("disparagement", "archaism", "slang")
# Words two glosses share by chance: function words, and the words dictionaries define everything with.
GLOSS_WORDS = frozenset(
    "a an the of or and to in on at by for from with without as is are be being that which who whom whose "
    "it its this these those one ones any some such other etc esp especially e g i used use kind sort "
    "something someone person thing things part form act state quality having has have made make not no "
    "usually often very more most small large".split()
)
# Verbs a gloss restating its word wraps it in: PULL `cause to move by pulling`.
GENERIC = frozenset({"cause", "move", "become", "get"})
AGREEMENT_MARGIN = 2  # agreeing_senses: content words the leading sense shares beyond any other sense
ENDINGS = ["", "s", "es", "ed", "d", "ing", "er", "ers", "ings"]
# The forms that name a word's own action again (SEW `fasten by sewing`, SPANK `give a spanking to`), unlike
# the word itself after an article, which is another part of speech a reader may know (HOE `dig with a hoe`,
# ARCHIVE `put into an archive`, HOST `be the host of`: not said in a circle).
OWN_FORMS = ["ing", "ings", "ed", "d"]
# A part of speech whose every sense names its word again with at most this many other content words is
# not shown (`unsaid`): SEW `fasten by sewing; do needlework`, SPANK `give a spanking to; subject to a
# spanking`. As a sort key it would put worse senses first where one sense says more (ASCEND `go back in
# order of genealogical succession` before `travel up`, CLAP `put quickly or forcibly`).
SAYS_NOTHING = 2
CHUNK = 16_384  # circular: the glosses whose words are exploded at once


def circular(table: pl.DataFrame, others: int = 1, own_forms: bool = False) -> pl.Series:
    """For each row of `table` (`lemma`, `gloss`): whether its gloss only restates the lemma: it names the lemma
    or a form of its stem (`pulling`, `stopping`) and has at most `others` other content words (not
    GLOSS_WORDS nor GENERIC): HEAL `heal or recover`, PULL `cause to move by pulling`, SAME `same in identity`,
    GOLD `coins made of gold`; not HISS `make a sharp hissing sound, as if to show disapproval` nor PLANE `cut or
    remove with or as if with a plane`. `own_forms`: it names the word only as its first word or in one of
    OWN_FORMS (`fasten by sewing`; not `dig with a hoe`)."""
    counts = _counts(table)
    mode = "own" if own_forms else "any"
    return (counts[f"named_{mode}"] & (counts[f"other_{mode}"] <= others)).alias("circular")


def said_again(table: pl.DataFrame) -> pl.DataFrame:
    """(`circular`, `says_nothing`) for each row of `table` (`lemma`, `gloss`), from one pass over its words:
    `circular` the sort key of `leading` (one other word), `says_nothing` what `unsaid` groups (OWN_FORMS,
    SAYS_NOTHING other words)."""
    counts = _counts(table)
    return counts.select(
        (pl.col("named_any") & (pl.col("other_any") <= 1)).alias("circular"),
        (pl.col("named_own") & (pl.col("other_own") <= SAYS_NOTHING)).alias("says_nothing"),
    )


def _counts(table: pl.DataFrame) -> pl.DataFrame:
    """(`named_any`, `other_any`, `named_own`, `other_own`) for each row of `table`: whether its gloss names the
    lemma, and how many other content words it has, with ENDINGS and with OWN_FORMS (circular's docstring).
    A gloss's counts are its own: CHUNK rows at a time, so that only their words are exploded at once (all
    114,640 of raw/'s WordNet at once were stage 2's peak, 130-180 MiB above what it held)."""
    parts = [_counted(table.slice(start, CHUNK)) for start in range(0, table.height, CHUNK)]
    if parts:
        return pl.concat(parts)
    return pl.DataFrame(
        schema={"named_any": pl.Boolean, "other_any": pl.UInt32, "named_own": pl.Boolean, "other_own": pl.UInt32}
    )


def _counted(table: pl.DataFrame) -> pl.DataFrame:
    """_counts of the rows of `table`, all at once."""
    root = pl.col("lemma").str.replace(r"([^e])e$", "$1")  # SEW: sewing; TRAINEE is not TRAINE+D
    word = pl.col("w")
    rest = word.str.slice(root.str.len_chars())
    itself = word == pl.col("lemma")
    content = ~word.is_in(list(GLOSS_WORDS | GENERIC)) & (word.str.len_chars() > 2)
    flags = []
    for mode, endings in (("any", ENDINGS), ("own", OWN_FORMS)):
        stem = word.str.starts_with(root) & (
            rest.is_in(endings) | ((rest.str.slice(0, 1) == root.str.slice(-1)) & rest.str.slice(1).is_in(endings))
        )
        named = itself | stem if mode == "any" else (itself & (pl.col("at") == 0)) | stem
        flags += [named.alias(f"named_{mode}"), (~(itself | stem) & content).alias(f"other_{mode}")]
    # Each word's flags as columns of the exploded words, then summed per gloss: the flags written inside
    # the aggregation were evaluated group by group (raw/'s WordNet: 1.3 s and the stage's peak memory).
    words = (
        table.lazy()
        .select(
            pl.int_range(pl.len()).alias("i"),
            "lemma",
            pl.col("gloss").str.to_lowercase().str.extract_all(r"[a-z]+").alias("w"),
        )
        .filter(pl.col("lemma").str.len_chars() >= 3)
        .with_columns(pl.int_ranges(pl.col("w").list.len()).alias("at"))
        .explode("w", "at")
        .select("i", *flags)
        .group_by("i")
        .agg(
            pl.col("named_any", "named_own").any(),
            pl.col("other_any", "other_own").sum().cast(pl.UInt32),
        )
        .collect(engine="streaming")
    )
    # A row with no words (or a lemma under 3 letters) names nothing.
    return (
        pl.int_range(table.height, eager=True)
        .alias("i")
        .to_frame()
        .join(words, on="i", how="left", maintain_order="left")
        .select(pl.col("named_any", "named_own").fill_null(False), pl.col("other_any", "other_own").fill_null(0))
    )


def leading(kept: pl.DataFrame) -> pl.DataFrame:
    """`kept` (wordnet.glosses' senses: `lemma`, `pos`, `sense`, `labelled`, `later`, `chosen`, `agrees`,
    `circular` of said_again, ...) sorted so that each (lemma, pos)'s leading sense comes first (module
    docstring)."""
    return kept.sort(
        ["lemma", "pos", "circular", "chosen", "labelled", "later", "agrees", "sense"],
        descending=[False, False, False, True, False, False, True, False],
    )


def unsaid(kept: pl.DataFrame) -> pl.DataFrame:
    """(`lemma`, `pos`) of `kept` (`lemma`, `pos`, `says_nothing` of said_again) whose every sense only
    restates the word (`circular` with OWN_FORMS and SAYS_NOTHING others): that part of speech is better
    unsaid than said in a circle (docs/definitions.md); a form then reads another source's text through its
    base, or none."""
    return kept.group_by("lemma", "pos").agg(pl.col("says_nothing").all()).filter("says_nothing").select("lemma", "pos")


def pos_order(main: pl.DataFrame, totals: pl.DataFrame) -> pl.DataFrame:
    """`main` (one leading sense per lemma and part of speech, with `chosen`, `tagged`, `rank`) with `rank`
    renumbered: the table's chosen part of speech first, then by the corpus's total tags (`totals`: `lemma`,
    `pos`, `total`), its tagged-sense count, and the part of speech's own order."""
    return (
        main.join(totals, on=["lemma", "pos"], how="left")
        .sort(["lemma", "chosen", "total", "tagged", "rank"], descending=[False, True, True, True, False])
        .with_columns(pl.int_range(pl.len()).over("lemma").alias("rank"))
        .drop("total")
    )


def _stems(text: str, lemma: str) -> set[str]:
    """The content words of a gloss, each cut to its first six letters after a plural -s (SWINE, BIRDS:
    bird, CHRISTIANS: christ, METALLIC: metall), the lemma itself left out."""
    words = (w.lower() for w in text.replace("-", " ").split())
    bare = ("".join(c for c in w if c.isalpha()) for w in words)
    return {
        (w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 3 else w)[:6]
        for w in bare
        if len(w) > 2 and w not in GLOSS_WORDS and w != lemma and not w.startswith(lemma[:6])
    }


def agreeing_senses(table: pl.DataFrame, other: pl.DataFrame, margin: int = AGREEMENT_MARGIN) -> pl.DataFrame:
    """(`lemma`, `pos`, `sense`): for a lemma whose part of speech has senses none of which the corpus tagged
    (senses()' `tagged` is 0, so WordNet's order is no evidence), the sense that agrees best with another
    dictionary's first current sense of the same lemma and part of speech (`other`: `lemma`, `pos`,
    `gloss`; gcide.current_firsts), when it is not the first already: it shares at least `margin` more
    content words (stems, _stems) with that gloss than any other sense does. STY: GCIDE's `A pen or
    inclosure for swine.` picks `a pen for swine` over `an infection of the sebaceous gland of the eyelid`."""
    untagged = (
        table.filter(pl.col("tagged") == 0)
        .join(other.rename({"gloss": "other"}), on=["lemma", "pos"])
        .sort("lemma", "pos", "sense")
    )
    by_part: dict[tuple[str, str], list[tuple[int, int]]] = {}
    theirs: dict[tuple[str, str], set[str]] = {}  # the other gloss's stems, once per part of speech, not per sense
    for lemma, pos, sense, gloss, text in untagged.select("lemma", "pos", "sense", "gloss", "other").rows():
        if (lemma, pos) not in theirs:
            theirs[lemma, pos] = _stems(text, lemma)
        shared = len(_stems(gloss, lemma) & theirs[lemma, pos])
        by_part.setdefault((lemma, pos), []).append((shared, sense))
    chosen = []
    for (lemma, pos), scores in by_part.items():
        first = scores[0][1]  # WordNet's first of the senses given
        scores.sort(reverse=True)
        if len(scores) > 1 and scores[0][1] != first and scores[0][0] >= scores[1][0] + margin:
            chosen.append((lemma, pos, scores[0][1]))
    return pl.DataFrame(chosen, schema={"lemma": pl.String, "pos": pl.String, "sense": pl.Int64}, orient="row")
