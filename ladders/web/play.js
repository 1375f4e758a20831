// Play mode: puzzles drawn by `ladders puzzle`'s generator at export time (data/puzzles.*.json: common and
// clean words of the manifest's puzzle_lexicon, CSW when the export holds it; substitutions). The player
// types rungs; par and the hints come from a breadth-first
// search from the end word over the clean words of its group. ?play=START-END shares any puzzle;
// today's puzzle is picked by the UTC date, the same for everyone (?daily=YYYY-MM-DD asks for a date's).
"use strict";

const game = { start: null, end: null, path: [], hints: 0, dist: null, done: false };

// The lexicon puzzles keep to (an export without CSW plays in its own lists), its group column and name.
const playLexicon = () => state.manifest.puzzle_lexicon ?? "csw";
const playColumn = () => `group_${playLexicon()}`;
const notListed = (w) => `${w || "An empty word"} is not in the ${playLexicon().toUpperCase()} word list.`;

function sayPlay(text, isError = false) {
  $("p-status").textContent = text;
  $("p-status").className = isError ? "error" : "";
}

function dayIndex(date, n) {  // FNV-1a of the date: a fixed, evenly spread pick
  let h = 2166136261;
  for (const c of date) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h % n;
}

async function newPuzzle(date) {
  const list = await getJSON(state.manifest.puzzles);
  let pool;
  if (date) {
    pool = list.filter((p) => p.steps >= 4 && p.length >= 4);
  } else {
    const length = Number($("p-length").value), steps = Number($("p-steps").value), level = $("p-difficulty").value;
    pool = list.filter((p) => p.length === length && p.steps === steps && (level === "any" || p.difficulty === level));
  }
  if (!pool.length) return sayPlay("No puzzle of that kind in this export: choose other letters, steps or difficulty.", true);
  const pick = date ? pool[dayIndex(date, pool.length)] : pool[Math.floor(Math.random() * pool.length)];
  $("p-length").value = String(pick.length); $("p-steps").value = String(pick.steps);  // the selectors say what it is
  const today = new Date().toISOString().slice(0, 10);
  const title = date === today ? `today's puzzle (${date})` : `the puzzle of ${date}`;
  return startPuzzle(pick.start, pick.end, date ? `${title}, ${pick.difficulty}` : pick.difficulty, date && `?daily=${date}`);
}

// Distances to `t` over the clean words of its substitution group.
function distancesTo(t) {
  const column = playColumn(), group = at(t, column), dist = new Map([[t, 0]]), queue = [t];
  for (let head = 0; head < queue.length; head++) {
    for (const u of neighbours(queue[head], false)) {
      if (!dist.has(u) && at(u, column) === group && !refused(u, "strict")) {
        dist.set(u, dist.get(queue[head]) + 1); queue.push(u);
      }
    }
  }
  return dist;
}

// The next rung of a shortest ladder from v: of the words one step nearer the end, the most common.
function nearer(v) {
  const d = game.dist.get(v);
  let best = null;
  for (const u of neighbours(v, false)) {
    if (game.dist.get(u) === d - 1 && (best === null || at(u, "rareness") < at(best, "rareness"))) best = u;
  }
  return best;
}

async function startPuzzle(from, to, about, address = null) {
  const a = normalise(from), b = normalise(to);
  $("p-end").replaceChildren(); $("p-rungs").replaceChildren(); $("p-form").hidden = true;
  if (a === null || b === null) return sayPlay(notLetters(a === null ? from : to), true);
  const ends = [];
  for (const w of [a, b]) {
    const found = await lookup(w);
    if (found) await bucket(found[1]);
    if (!found || at(found[0], playColumn()) === null) return sayPlay(notListed(w), true);
    if (refused(found[0], "strict")) return sayPlay(`${w} is flagged ${refused(found[0], "strict")}: puzzles keep to clean words.`, true);
    ends.push(found[0]);
  }
  const [s, t] = ends;
  if (s === t) return sayPlay(`${a} and ${b} are the same word: a puzzle needs two.`, true);
  if (a.length !== b.length) return sayPlay(`${a} has ${letterCount(a)} letters and ${b} has ${letterCount(b)}: a puzzle's words have one length.`, true);
  if (at(s, playColumn()) !== at(t, playColumn())) return sayPlay(`No puzzle from ${a} to ${b}: no ladder joins them (they are in different groups).`, true);
  game.dist = distancesTo(t);
  if (!game.dist.has(s)) return sayPlay(`No puzzle from ${a} to ${b}: every ladder steps on a flagged word.`, true);
  Object.assign(game, { start: s, end: t, path: [s], hints: 0, done: false });
  $("p-goal").textContent = `${a} → ${b}` + (about ? ` (${about})` : "");
  $("p-rungs").appendChild(await rung(s));
  $("p-form").hidden = false;
  const link = new URL(location.href);
  link.search = `?play=${encodeURIComponent(a)}-${encodeURIComponent(b)}`;
  history.replaceState(null, "", address ?? link.search);  // what a reload (after a re-export) goes on with
  $("p-link").href = link.href; $("p-link").textContent = link.href; $("p-share").hidden = false;
  sayPlay(`Type the next word: one letter of ${a} changed.`);
  document.body.dataset.puzzle = `${a}-${b}`;
  $("p-word").focus();
}

async function addRung(id, hinted) {
  game.path.push(id);
  const item = await rung(id);
  if (hinted) item.classList.add("hint");
  $("p-rungs").appendChild(item);
  if (id === game.end) return finish();
  $("p-word").focus();
  sayPlay(hinted ? `Hint: ${at(id, "words")}.` : `${at(id, "words")}: good.`);
}

async function playWord(text) {
  const w = normalise(text), last = game.path[game.path.length - 1], was = at(last, "words");
  if (game.done || game.start === null) return;
  if (w === null) return sayPlay(notLetters(text), true);
  const found = await lookup(w);
  if (found) await bucket(found[1]);
  if (!found || at(found[0], playColumn()) === null) return sayPlay(notListed(w), true);
  const id = found[0];
  if (w.length !== was.length) return sayPlay(`${w} has ${letterCount(w)} letters: every rung has ${letterCount(was)}.`, true);
  if (!neighbours(last, false).includes(id)) return sayPlay(`${w} is not one step from ${was}: change exactly one letter.`, true);
  if (refused(id, "strict")) return sayPlay(`${w} is flagged ${refused(id, "strict")}: puzzles keep to clean words.`, true);
  if (game.path.includes(id)) return sayPlay(`${w} is already on your ladder.`, true);
  $("p-word").value = "";
  return addRung(id, false);
}

async function hint() {
  if (game.done || game.start === null) return;
  const next = nearer(game.path[game.path.length - 1]);
  if (next === null) return sayPlay("No ladder goes on from here: go back by typing an earlier word's neighbour.", true);
  game.hints++;
  return addRung(next, true);
}

async function finish() {
  game.done = true;
  $("p-form").hidden = true;
  const steps = game.path.length - 1, par = game.dist.get(game.start), best = [game.start];
  while (best[best.length - 1] !== game.end) best.push(nearer(best[best.length - 1]));
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const verdict = steps === par ? "par!" : `${steps - par} over par.`;
  sayPlay(game.hints >= steps
    ? `The hints climbed the whole ladder: ${plural(steps, "step")}, par ${par}.`
    : `Solved in ${plural(steps, "step")}${game.hints ? ` with ${plural(game.hints, "hint")}` : ""}: ${verdict}`);
  const shown = await render("A shortest ladder", best, `: par ${par}`);
  shown.querySelector("h2").textContent = `Par ${par}; you took ${steps}. A shortest ladder:`;
  $("p-end").replaceChildren(shown);
  document.body.dataset.finished = `${steps}/${par}`;
}

$("p-form").addEventListener("submit", (event) => {
  event.preventDefault();
  playWord($("p-word").value).catch((err) => sayPlay(`Could not fetch the words (offline?): ${err.message}`, true));
});
$("p-hint").addEventListener("click", () => hint());
// Offer only what exists: a letters, steps or difficulty option with no puzzle (given the other two
// choices) is disabled, and a choice left on one moves to the first that has puzzles.
// An export with no puzzle (small lists, none of everyday words) offers no play mode at all; the answer.
async function offerPuzzles() {
  const list = await getJSON(state.manifest.puzzles);
  $("play").hidden = !list.length;
  if (!list.length) return false;
  const choice = { length: $("p-length"), steps: $("p-steps"), difficulty: $("p-difficulty") };
  const fits = (p, key, value) => Object.entries(choice).every(([k, el]) => {
    const want = k === key ? value : el.value;
    return k === "difficulty" ? want === "any" || p.difficulty === want : p[k] === Number(want);
  });
  for (const [key, el] of Object.entries(choice)) {
    for (const option of el.options) option.disabled = !list.some((p) => fits(p, key, option.value));
    if (el.selectedOptions[0]?.disabled) {
      const open = [...el.options].find((o) => !o.disabled);
      if (open) el.value = open.value;
    }
  }
  return true;
}
for (const id of ["p-length", "p-steps", "p-difficulty"]) {
  $(id).addEventListener("change", () => offerPuzzles().catch((err) => sayPlay(err.message, true)));
}

$("p-new").addEventListener("click", () => newPuzzle(null).catch((err) => sayPlay(err.message, true)));
$("p-daily").addEventListener("click", () => newPuzzle(new Date().toISOString().slice(0, 10))
  .catch((err) => sayPlay(err.message, true)));
