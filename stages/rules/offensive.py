"""The `offensive` and `vulgar_sense` flags for stage 2 (not a stage itself): what a family game never
shows, and the everyday words a stricter game also avoids.

Two levels, never both on one word:
- `offensive`: the word's main use is a slur (ethnic, national, religious, sexual orientation, disability)
  or an obscenity or profanity (NIGGER, FUCK, TWAT), and every inflection or derived form of such a word
  (NIGGERS, FUCKED, FUCKER) unless the reviewed list clears the form;
- `vulgar_sense`: an everyday word with an innocent main sense that also has a vulgar or slur sense (ASS,
  COCK, QUEER), and its inflections that are no WordNet lemma of their own (COCKS, but not PRICKLY).

Reads the lexicon's words (`id`, `word`), WordNet's lower-case senses (stages/sources/wordnet.py: usage domains
and the labels in glosses), the lemmas GCIDE labels on an entry's head or first sense (stages/sources/gcide.py),
the `cuss` ratings (config key `cuss`: the npm package's index.js, `word: 0|1|2`, how surely a word is
used as a profanity) and the reviewed list (config key `offensive`: `WORD level reason` a line, level
`offensive`, `vulgar_sense` or `clean`; `#` comments). A base word's level, first rule that applies:

1. the reviewed list names it: its level (`clean`: neither, and its forms inherit nothing);
1b. a form of a word the reviewed list marks `vulgar_sense` (and does not name itself) is `vulgar_sense`,
   on the terms of the vulgar_sense rule for forms below, before any source may call it offensive (KRAUT:
   KRAUTS);
2. WordNet labels some of its senses (a slur or obscenity domain, or a gloss such as "obscene terms
   for", "(ethnic slur)", "offensive term for"): `offensive` when the main sense is labelled (the first
   sense of the part of speech the corpus tagged most: QUEER's is the adjective "strange"), else
   `vulgar_sense`. A label of disparagement alone ("disparaging term", the disparagement domain)
   counts only when cuss rates the word too, or SOFTNESS and SHRIMP would be caught;
3. GCIDE labels its main sense vulgar, obscene, offensive or derogatory: `offensive` when WordNet has no
   lower-case sense of it, else `vulgar_sense` when cuss rates it 1 or 2 (a label the lemma's WordNet
   senses do not bear is weak alone: GCIDE's COME, MOTHER);
4. cuss rates it 2 (surely profane) and neither it nor a base form of it (SPICES: SPICE) is a WordNet
   lemma: `offensive` (TWAT, POOFTER, JISM are in no dictionary source here). cuss's 2s include everyday
   words (KUMQUAT, WELFARE), hence the WordNet condition.
Then forms (morphology.proposed_bases: WordNet's suffix rules), for words the reviewed list does not name:
- a regular form of a word the reviewed list clears is clean too, whatever the sources say (BLUEGUM
  clean: BLUEGUMS, which cuss rates, is clean);
- a form whose base forms that are words are all `offensive` is `offensive` too, to a fixed point
  (FUCKERS <- FUCKER <- FUCK; not SPICES, whose base SPICE is not);
- a form whose word bases are all `vulgar_sense` is `vulgar_sense` when it is no WordNet lemma itself (COCKS;
  not PRICKLY) and when it can carry the vulgar meaning: when WordNet labels some of a base's senses, the
  form must be one of a part of speech so labelled (DYKE's slur is a noun: DYKES is vulgar_sense, but
  DYKED and DYKING, forms of the verb "dike", are clean); a derived form or a base WordNet does not label
  follows its base.
A form with an innocent sense of its own is cleared in the reviewed list.

Gives a frame (`offensive`, `vulgar_sense`), one row per lexicon row, and notes counting each level by the
source that set it.
"""

from __future__ import annotations

import re

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline import wording
from stages.sources.wordlists import content_lines
from stages.rules.morphology import proposed_bases
from stages.sources.wordnet import OFFENSIVE_DOMAINS

LEVELS = (Col.offensive, Col.vulgar_sense, "clean")  # the reviewed list's levels: two columns and neither
# Labels WordNet writes in a gloss instead of (or besides) a usage domain. Strong: a slur or obscenity.
STRONG_GLOSS = (
    r"\b(?:obscene (?:terms?|words?|name)|vulgar (?:slang|terms?)|\(ethnic slur\)|"
    r"offensive (?:terms?|names?)|offensive and insulting|insulting terms? of address)\b"
)
WEAK_GLOSS = r"\b(?:disparaging terms?|derogatory terms?|\(derogatory|a derogatory)\b"  # put-downs, mild or not
STRONG_DOMAINS = ("ethnic slur", "vulgarism", "profanity")
# One entry of cuss's index.js: `  word: 2,` or `  'two words': 1,`.
CUSS_ENTRY = re.compile(r"^\s*(?:'([^'\\]*)'|\"([^\"\\]*)\"|([A-Za-z0-9_$]+)):\s*([0-2]),?\s*$")


def reviewed_list(name: str, data: bytes) -> dict[str, str]:
    """WORD (upper case) -> level, from the reviewed list's `WORD level reason` lines; every line needs a
    reason, and a word is listed once."""
    lines = content_lines(name, data)
    found: dict[str, str] = {}
    for line, text in lines.select("line", "text").rows():
        parts = text.split(None, 2)
        if (
            len(parts) < 3
            or not re.fullmatch(r"[A-Za-z]+", parts[0])
            or parts[1] not in LEVELS
            or not parts[2].strip(" #")
        ):
            raise InputFormatError(
                f"{name}, line {line}: expected WORD LEVEL REASON, LEVEL one of {', '.join(LEVELS)}, in {text[:60]!r}"
            )
        word = parts[0].upper()
        if word in found:
            raise InputFormatError(f"{name}, line {line}: {word} is listed twice")
        found[word] = parts[1]
    return found


def cuss_ratings(files: dict[str, bytes] | None) -> dict[str, int]:
    """WORD (upper case, single words only) -> cuss's rating 0-2, from its index.js (`export const cuss
    = {` ... `}`): every line inside the object must be an entry."""
    if not files:
        return {}
    ((name, data),) = files.items()
    text = data.decode("utf-8", errors="replace").splitlines()
    opened = next((i for i, line in enumerate(text) if re.match(r"^export const \w+ = \{\s*$", line)), None)
    if opened is None:
        raise InputFormatError(f"{name}: no line `export const cuss = {{`: not cuss's index.js")
    ratings: dict[str, int] = {}
    for number, line in enumerate(text[opened + 1 :], start=opened + 2):
        if line.strip() in ("}", "};"):
            return ratings
        found = CUSS_ENTRY.match(line)
        if found is None:
            raise InputFormatError(f"{name}, line {number}: expected `word: 0|1|2,` in {line[:60]!r}")
        word = next(g for g in found.groups()[:3] if g is not None)
        if re.fullmatch(r"[A-Za-z]+", word):
            ratings[word.upper()] = int(found.group(4))
    raise InputFormatError(f"{name}: the object opened on line {opened + 1} is never closed")


def inherits(bases: pl.DataFrame, flagged: set[str]) -> pl.Series:
    """The words of `bases` (`word`, `base`: proposals that are words of the lexicon) that are forms of a
    flagged word: some base is flagged and no other base is a word that is not (SPICES is SPICE's plural
    as well as SPIC's; TESTED is TEST's past). verify (E502) checks offensive forms by this rule."""
    bad = pl.col("base").is_in(sorted(flagged))
    return (
        bases.group_by(Col.word)
        .agg(bad.any().alias("bad"), bad.all().alias("only"))
        .filter(pl.col("bad") & pl.col("only"))[Col.word]
        .sort()
    )


def _wordnet_levels(
    senses: pl.DataFrame, domains: pl.DataFrame, rated: set[str]
) -> tuple[dict[str, str], dict[str, set[str]]]:
    """Rule 2: WORD -> offensive or vulgar_sense, for lemmas with a labelled lower-case sense; and WORD -> the
    parts of speech of its labelled senses."""
    gloss = pl.col("gloss")
    labelled = (
        senses.join(
            domains.group_by("lemma", "pos", "sense").agg(
                pl.col("domain").is_in(STRONG_DOMAINS).any().alias("strong_domain"), pl.len().alias("n_domains")
            ),
            on=["lemma", "pos", "sense"],
            how="left",
        )
        .with_columns(
            (pl.col("strong_domain").fill_null(False) | gloss.str.contains(STRONG_GLOSS)).alias("strong"),
            (pl.col("n_domains").is_not_null() | gloss.str.contains(WEAK_GLOSS)).alias("weak"),
        )
        .with_columns(pl.col("lemma").str.to_uppercase().alias(Col.word))
        # A put-down alone counts only for words cuss rates: QUEER, PANSY; not SOFTNESS, SHRIMP.
        .with_columns((pl.col("strong") | (pl.col("weak") & pl.col(Col.word).is_in(sorted(rated)))).alias("label"))
    )
    parts = labelled.filter("label").group_by(Col.word).agg(pl.col("pos").unique())
    labelled = (
        labelled
        # The main sense: the first of the part of speech the corpus tagged most (as glosses() orders them).
        .sort(Col.word, "tagged", "rank", "sense", descending=[False, True, False, False])
        .group_by(Col.word)
        .agg(pl.col("label").first().alias("main"), pl.col("label").any().alias("any"))
        .filter("any")
    )
    levels = {word: Col.offensive if main else Col.vulgar_sense for word, main, _ in labelled.rows()}
    return levels, {word: set(pos) for word, pos in parts.rows()}


def _meaning_kept(forms: pl.DataFrame, bases: pl.DataFrame, labelled_pos: dict[str, set[str]]) -> pl.DataFrame:
    """The rows of `bases` (`word`, `base`) along which a flagged meaning can pass: the base's labelled parts of
    speech are unknown (no WordNet label), or the form is not one of WordNet's inflections of it (a derived
    form), or it is one of such a part of speech (DYKES, a noun's plural; not DYKING, a verb's form)."""
    inflected = forms.filter(pl.col("priority") > 0).select(
        pl.col("lower").str.to_uppercase().alias(Col.word), pl.col("base").str.to_uppercase(), "pos"
    )
    known = pl.DataFrame(
        [(w, p) for w, ps in labelled_pos.items() for p in ps],
        schema={"base": pl.String, "labelled": pl.String},
        orient="row",
    )
    by_pair = inflected.group_by(Col.word, "base").agg(pl.col("pos").unique())
    pairs = bases.join(by_pair, on=[Col.word, "base"], how="left").join(
        known.group_by("base").agg("labelled"), on="base", how="left"
    )
    return pairs.filter(
        pl.col("labelled").is_null()
        | pl.col("pos").is_null()
        | (pl.col("pos").list.set_intersection("labelled").list.len() > 0)
    ).select(Col.word, "base")


def _offensive_forms(candidates: pl.DataFrame, offensive: set[str]) -> set[str]:
    """The words of `candidates` (`word`, `base`) that are forms of an offensive word by inherits' rule, or
    forms of such forms, to a fixed point (FUCKERS <- FUCKER <- FUCK: two rounds; the set only grows, so
    the loop ends); not those of `offensive` itself."""
    bad = set(offensive)
    while new := set(inherits(candidates, bad)) - bad:
        bad |= new
    return bad - offensive


def offensive_words(
    lexicon: pl.DataFrame,
    domains: pl.DataFrame,
    gcide_flagged: pl.Series | None,
    offensive: dict[str, bytes] | None,
    wordnet_senses: pl.DataFrame,
    cuss: dict[str, bytes] | None,
    forms: pl.DataFrame,
) -> tuple[pl.DataFrame, list[str]]:
    """(`offensive`, `vulgar_sense`), one row per lexicon row in its order, and the notes (module docstring).
    `domains`: wordnet.sense_domains of `wordnet_senses` (of these domains or more); `forms`:
    morphology.morphology of the lexicon."""
    ((name, data),) = (offensive or {"offensive.txt": b""}).items()
    listed = reviewed_list(name, data)
    ratings = cuss_ratings(cuss)
    words = lexicon[Col.word]
    in_lexicon = set(words)
    level: dict[str, str] = {}  # every word some rule sets, with the source that set it
    source: dict[str, str] = {}

    def put(found: dict[str, str], by: str) -> None:
        for word, lvl in found.items():
            if word in in_lexicon and word not in level:
                level[word], source[word] = lvl, by

    put(listed, f"listed in {name.rsplit('/', 1)[-1]}")
    bases = proposed_bases(words, forms)
    cleared = sorted(w for w, lvl in listed.items() if lvl == "clean")
    cleared_forms = bases.filter(pl.col("base").is_in(cleared) & ~pl.col(Col.word).is_in(sorted(listed)))[Col.word]
    put(dict.fromkeys(cleared_forms, "clean"), "form of a cleared word")
    rated = {w for w, r in ratings.items() if r >= 1}
    offending = domains.filter(pl.col("domain").is_in([name.replace("_", " ") for name in OFFENSIVE_DOMAINS]))
    by_wordnet, labelled_pos = _wordnet_levels(wordnet_senses, offending, rated)
    lemmas = set(wordnet_senses["lemma"].str.to_uppercase())
    # A dual-use word the list names passes vulgar_sense to its forms before any source may call them
    # offensive (KRAUT: KRAUTS), on the terms of the vulgar_sense rule below.
    unnamed = ~pl.col(Col.word).is_in(sorted(set(listed) | set(cleared_forms)))
    listed_vulgar = {w for w, lvl in listed.items() if lvl == Col.vulgar_sense}
    named_forms = bases.filter(
        unnamed & pl.col("base").is_in(words.implode()) & ~pl.col(Col.word).is_in(sorted(lemmas))
    )
    put(
        dict.fromkeys(inherits(_meaning_kept(forms, named_forms, labelled_pos), listed_vulgar), Col.vulgar_sense),
        "form of a vulgar_sense word",
    )
    put(by_wordnet, "wordnet")
    gcide = set(gcide_flagged.str.to_uppercase()) if gcide_flagged is not None else set()
    put({w: Col.offensive for w in gcide if w not in lemmas}, "gcide")
    put({w: Col.vulgar_sense for w in gcide if w in lemmas and w in rated}, "gcide")
    lemma_bases = set(bases.filter(pl.col("base").is_in(sorted(lemmas)))[Col.word])
    put({w: Col.offensive for w, r in ratings.items() if r == 2 and w not in lemmas and w not in lemma_bases}, "cuss")

    # Forms of offensive words. Only the reviewed list stops one (verify E502 holds the export to that): a
    # source's vulgar_sense for a form of an offensive word gives way.
    candidates = bases.filter(unnamed & pl.col("base").is_in(words.implode()))
    for word in _offensive_forms(candidates, {w for w, lvl in level.items() if lvl == Col.offensive}):
        level[word], source[word] = Col.offensive, "form of an offensive word"
    vulgar = inherits(
        _meaning_kept(forms, candidates.filter(~pl.col(Col.word).is_in(sorted(lemmas))), labelled_pos),
        {w for w, lvl in level.items() if lvl == Col.vulgar_sense},
    )
    put({w: Col.vulgar_sense for w in vulgar}, "form of a vulgar_sense word")

    levels = words.replace_strict(level, default="", return_dtype=pl.String)  # 5x a Python loop over 268k words
    flags = pl.DataFrame([(levels == lvl).alias(lvl) for lvl in (Col.offensive, Col.vulgar_sense)])
    return flags, _notes(level, source)


def _notes(level: dict[str, str], source: dict[str, str]) -> list[str]:
    """One line per level of LEVELS: how many words have it (WORD -> level), and for offensive and
    vulgar_sense how many each source set (WORD -> source), most first."""
    notes = []
    for lvl in LEVELS:
        by: dict[str, int] = {}
        for word, got in level.items():
            if got == lvl:
                by[source[word]] = by.get(source[word], 0) + 1
        total = sum(by.values())
        said = "; ".join(f"{s} {n:,}" for s, n in sorted(by.items(), key=lambda kv: (-kv[1], kv[0])))
        notes.append(
            f"{lvl}: {wording.words(total)}"
            + (" kept so by the reviewed list (or as a form of a word it clears)" if lvl == "clean" else "")
            + (f" ({said})" if said and lvl != "clean" else "")
        )
    return notes
