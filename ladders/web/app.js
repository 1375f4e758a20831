// The static word-ladder solver. `ladders export-web` writes data/manifest.json (fetched fresh on every
// load) naming content-hashed files, fetched only when needed and cacheable forever:
// - data/i/*: the word index, one file per length and first letter: each word's id and bucket;
// - data/b/*: buckets of whole substitution groups: their words, rareness, label, flags, groups and links;
// - data/defs/*: definitions, CHUNK words of a bucket per file, fetched for the rungs shown;
// - data/s/*: for edit groups that span buckets, which buckets (an edit search loads them all).
// The two ladders, as `ladders solve` defines them (README, "How the two ladders are chosen"):
// shortest: fewest steps, then least sum of rareness (a breadth-first search keeping each word's least
// sum over its shortest paths); common: each everyday word (label common) costs 1, any other its
// rareness; Dijkstra on (sum of costs, steps, sum of rareness). Both keep to the group the two words share.
// ?from=COLD&to=WARM[&lexicon=owl][&edit=1][&clean=off|on|strict] solves on load (links can be shared).
// Strict unless asked otherwise: no offensive word, and no everyday word with a vulgar sense; on: no
// offensive word.
"use strict";

const state = { manifest: null, files: new Map(), buckets: new Map(), where: new Map() };
const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

const HASHED = /^data\/.+\.[0-9a-f]{16}\.json$/;

function getJSON(name) {  // each content-named file once per page
  if (!state.files.has(name)) {
    state.files.set(name, fetch(name).then((r) => {
      // A content-named file gone: the page was left open across two re-exports (export-web keeps the
      // previous export's files, not older ones). Load the new export, once per version.
      if (r.status === 404 && HASHED.test(name) && state.manifest) {
        const key = `ladders-reloaded-${state.manifest.version}`;
        if (!sessionStorage.getItem(key)) {
          sessionStorage.setItem(key, "1");
          location.reload();
          return new Promise(() => {});
        }
      }
      if (!r.ok) throw new Error(`${name}: ${r.status}`);
      return r.json();
    }));
  }
  return state.files.get(name);
}

function undelta(values) {
  const out = new Array(values.length);
  for (let i = 0, sum = 0; i < values.length; i++) out[i] = sum += values[i];
  return out;
}

async function bucket(n) {
  if (!state.buckets.has(n)) {
    state.buckets.set(n, getJSON(state.manifest.buckets[n]).then((b) => {
      b.ids = undelta(b.ids);
      for (const flag of state.manifest.positions) b[flag] = new Set(b[flag]);  // offensive, vulgar_sense
      b.subPtr = [0]; b.indelPtr = [0];
      for (const k of b.sub_len) b.subPtr.push(b.subPtr[b.subPtr.length - 1] + k);
      for (const k of b.indel_len) b.indelPtr.push(b.indelPtr[b.indelPtr.length - 1] + k);
      for (let p = 0; p < b.ids.length; p++) {  // links to global ids, rebuilt from the deltas
        for (let k = b.subPtr[p], prev = 0; k < b.subPtr[p + 1]; k++) b.sub[k] = prev = prev + b.sub[k];
        for (let k = b.subPtr[p]; k < b.subPtr[p + 1]; k++) b.sub[k] = b.ids[b.sub[k]];
        for (let k = b.indelPtr[p], prev = 0; k < b.indelPtr[p + 1]; k++) b.indel[k] = prev = prev + b.indel[k];
        state.where.set(b.ids[p], [b, p]);
      }
      return b;
    }));
  }
  return state.buckets.get(n);
}

// A word's id and bucket number from the index, or null when no list has it.
async function lookup(word) {
  const name = state.manifest.index[`${word.length}:${word.slice(0, 1)}`];
  if (!word || typeof name !== "string") return null;
  const index = await getJSON(name);
  if (!index.map) {
    const ids = undelta(index.ids);
    index.map = new Map(index.words.map((w, k) => [w, [ids[k], index.bucket[k]]]));
  }
  return index.map.get(word) ?? null;
}

// One word's fields, by id (its bucket loaded).
function at(id, field) {
  const [b, p] = state.where.get(id);
  return b[field][p];
}

async function load() {
  const started = performance.now();
  const response = await fetch("data/manifest.json", { cache: "no-cache" });
  if (!response.ok) throw new Error(`data/manifest.json: ${response.status}`);
  state.manifest = await response.json();
  lexiconChoices(state.manifest.lexicons ?? ["csw", "owl"]);
  document.body.dataset.loadMs = (performance.now() - started).toFixed(1);
  document.body.dataset.version = state.manifest.version;
  $("solve").disabled = false;
  $("solve").textContent = "Find the ladders";
  $("offline-size").textContent = `${(state.manifest.bytes / 1e6).toFixed(1)} MB`;
}

// The list selector offers the lexicons the export holds: the page's own labels for csw and owl, a
// lexicon's name for the others (set as text: a name never becomes markup).
function lexiconChoices(names) {
  const select = $("lexicon"), known = new Map([...select.options].map((o) => [o.value, o.textContent]));
  select.replaceChildren(...names.map((name) => {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = known.get(name) ?? name;
    return option;
  }));
}

function neighbours(v, edit) {
  const [b, p] = state.where.get(v), out = [];
  for (let k = b.subPtr[p]; k < b.subPtr[p + 1]; k++) out.push(b.sub[k]);
  if (edit) for (let k = b.indelPtr[p]; k < b.indelPtr[p + 1]; k++) out.push(b.indel[k]);
  return out.filter((u) => state.where.has(u));  // a bucket not loaded holds no word of this group
}

class Heap {  // a binary min-heap of [cost, steps, rareness, node], least triple first
  constructor() { this.a = []; }
  get size() { return this.a.length; }
  less(x, y) { return x[0] !== y[0] ? x[0] < y[0] : x[1] !== y[1] ? x[1] < y[1] : x[2] < y[2]; }
  push(item) {
    const a = this.a; a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]]; i = p;
    }
  }
  pop() {
    const a = this.a, top = a[0], last = a.pop();
    if (a.length) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l], a[m])) m = l;
        if (r < a.length && this.less(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]]; i = m;
      }
    }
    return top;
  }
}

function pathTo(parent, t) {
  const path = [t];
  while (parent.get(path[0]) !== undefined) path.unshift(parent.get(path[0]));
  return path;
}

// Why a word is refused at a clean level ("on" or "strict"), or null when it is allowed.
function refused(u, clean) {
  const [b, p] = state.where.get(u);
  if (clean !== "off" && b.offensive.has(p)) return "offensive";
  if (clean === "strict" && b.vulgar_sense.has(p)) return "vulgar_sense";
  return null;
}

function search(s, t, column, edit, clean) {
  const group = at(s, column), rareness = (u) => at(u, "rareness");
  const allowed = (u) => at(u, column) === group && !refused(u, clean);
  // Shortest: breadth-first, layer by layer; a word's predecessors are all in the layer before, so its
  // least rareness sum is final before it is itself expanded.
  let parent = new Map([[s, undefined]]);
  const dist = new Map([[s, 0]]), sum = new Map([[s, rareness(s)]]), queue = [s];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    if (dist.has(t) && dist.get(v) >= dist.get(t)) break;
    for (const u of neighbours(v, edit)) {
      if (!allowed(u)) continue;
      const c = sum.get(v) + rareness(u);
      if (!dist.has(u)) {
        dist.set(u, dist.get(v) + 1); sum.set(u, c); parent.set(u, v); queue.push(u);
      } else if (dist.get(u) === dist.get(v) + 1 && c < sum.get(u)) {
        sum.set(u, c); parent.set(u, v);
      }
    }
  }
  if (!parent.has(t)) return null;
  const shortest = pathTo(parent, t);
  // Common words: Dijkstra on (sum of costs, steps, sum of rareness); an everyday word costs 1.
  const cost = (u) => (at(u, "label") === 0 ? 1 : rareness(u));
  const best = new Map([[s, [cost(s), 0, rareness(s)]]]), done = new Set(), heap = new Heap();
  parent = new Map([[s, undefined]]);
  heap.push([...best.get(s), s]);
  while (heap.size) {
    const [c0, c1, c2, v] = heap.pop();
    if (done.has(v)) continue;
    done.add(v);
    if (v === t) break;
    for (const u of neighbours(v, edit)) {
      if (!allowed(u) || done.has(u)) continue;
      const c = [c0 + cost(u), c1 + 1, c2 + rareness(u)], b = best.get(u);
      if (!b || heap.less(c, b)) {
        best.set(u, c); parent.set(u, v); heap.push([...c, u]);
      }
    }
  }
  return { shortest, shortestCost: sum.get(t), common: pathTo(parent, t), cost: best.get(t)[2] };
}

// A word's definition; null when it has none, undefined when its file could not be fetched.
async function definition(id) {
  const [b, p] = state.where.get(id);
  const chunk = await getJSON(b.defs[Math.floor(p / b.chunk)]).catch(() => undefined);
  return chunk === undefined ? undefined : chunk[p % b.chunk] ?? null;
}

const NOT_LOADED = "(the definition could not be loaded: offline, or the server failed)";

// One word as a list item: the word, its label and its definition (fetched on demand).
async function rung(id) {
  const item = document.createElement("li"), label = state.manifest.labels[at(id, "label")];
  item.dataset.word = at(id, "words");
  item.innerHTML = '<span class="word"></span><span class="label"></span><span class="definition"></span>';
  item.querySelector(".word").textContent = at(id, "words");
  item.querySelector(".label").textContent = label;
  item.querySelector(".label").classList.add(label);
  const text = await definition(id);
  item.querySelector(".definition").textContent = text === undefined ? NOT_LOADED : text ?? "(no definition)";
  if (text === undefined) item.classList.add("not-loaded");
  return item;
}

async function render(title, path, extra) {
  const section = document.createElement("div");
  section.className = "ladder";
  const heading = document.createElement("h2");
  heading.textContent = `${title}: ${path.length - 1} step${path.length === 2 ? "" : "s"}${extra}`;
  const list = document.createElement("ol");
  list.setAttribute("aria-label", title);
  for (const id of path) list.appendChild(await rung(id));
  section.append(heading, list);
  return section;
}

// An edit group may span buckets (words of several lengths): fetch every one before searching it.
async function loadSpan(column, group) {
  const m = state.manifest, spans = await getJSON(m.spans[column][Math.floor(group / m.span)]);
  const list = Object.prototype.hasOwnProperty.call(spans, String(group)) ? spans[String(group)] : [];
  await Promise.all(list.map(bucket));
}

// A typed word's one rule, as in `ladders solve` and the PHP solver: spaces and tabs around it dropped,
// a-z folded to A-Z, anything else refused. toUpperCase alone maps the ligature "\ufb01" to "FI" and the
// dotless "\u0131" to "I": words never typed.
function normalise(text) {
  const w = String(text).replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "");
  return /^[A-Za-z]+$/.test(w) ? w.toUpperCase() : null;
}

function notLetters(text) {
  const w = String(text).trim();
  return w ? `"${w.length > 40 ? w.slice(0, 40) + "..." : w}" is not a word of letters A-Z.` : "An empty word is not a word.";
}

async function solve(from, to, lexicon, edit, clean) {
  const answers = $("answers");
  answers.replaceChildren();
  const a = normalise(from), b = normalise(to);
  if (a === null || b === null) return say(notLetters(a === null ? from : to), true);
  const column = `group_${lexicon}${edit ? "_edit" : ""}`, ends = [];
  for (const w of [a, b]) {
    const found = await lookup(w);
    if (found) await bucket(found[1]);
    if (!found || at(found[0], `group_${lexicon}`) === null) {
      return say(`${w || "An empty word"} is not in the ${lexicon.toUpperCase()} word list.`, true);
    }
    ends.push(found[0]);
  }
  const [s, t] = ends;
  if (s === t) return say(`${a} and ${b} are the same word: a ladder needs two.`, true);
  if (!edit && a.length !== b.length) {
    return say(`${a} has ${a.length} letters and ${b} has ${b.length}: tick "insert and delete letters too".`, true);
  }
  if (at(s, column) !== at(t, column)) return say(`No ladder: ${a} and ${b} are in different groups.`, true);
  for (const [w, u] of [[a, s], [b, t]]) {
    const why = refused(u, clean);
    if (why) return say(`${w} is flagged ${why}: clean ladders neither start nor end on such a word.`, true);
  }
  if (edit) await loadSpan(column, at(s, column));
  const started = performance.now();
  const found = search(s, t, column, edit, clean);
  const ms = performance.now() - started;
  document.body.dataset.solveMs = ms.toFixed(2);
  if (!found) return say(`No clean ladder from ${a} to ${b}: every one steps on a flagged word.`, true);
  answers.append(await render("Shortest ladder", found.shortest, `, rareness ${found.shortestCost.toLocaleString("en")}`),
                 await render("Common-word ladder", found.common, `, rareness ${found.cost.toLocaleString("en")}`));
  // Said once the ladders show (their definitions fetched), not before.
  const missing = answers.querySelector(".not-loaded") ? " Some definitions could not be loaded." : "";
  say(`${a} to ${b}: solved in ${ms.toFixed(1)} ms.${missing}`, Boolean(missing));
  document.body.dataset.solved = `${a}-${b}`;
}

$("ask").addEventListener("submit", (event) => {
  event.preventDefault();
  solve($("from").value, $("to").value, $("lexicon").value, $("edit").checked, $("clean").value)
    .catch((err) => say(`Could not fetch the words (offline?): ${err.message}`, true));
});


// Play: puzzles drawn by `ladders puzzle`'s generator at export time (data/puzzles.*.json: common and
// clean CSW words, substitutions). The player types rungs; par and the hints come from a breadth-first
// search from the end word over the clean words of its group. ?play=START-END shares any puzzle;
// today's puzzle is picked by the UTC date, the same for everyone (?daily=YYYY-MM-DD asks for a date's).
const game = { start: null, end: null, path: [], hints: 0, dist: null, done: false };

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
  return startPuzzle(pick.start, pick.end, date ? `${title}, ${pick.difficulty}` : pick.difficulty);
}

// Distances to `t` over the clean words of its substitution group.
function distancesTo(t) {
  const column = "group_csw", group = at(t, column), dist = new Map([[t, 0]]), queue = [t];
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

async function startPuzzle(from, to, about) {
  const a = normalise(from), b = normalise(to);
  $("p-end").replaceChildren(); $("p-rungs").replaceChildren(); $("p-form").hidden = true;
  if (a === null || b === null) return sayPlay(notLetters(a === null ? from : to), true);
  const ends = [];
  for (const w of [a, b]) {
    const found = await lookup(w);
    if (found) await bucket(found[1]);
    if (!found || at(found[0], "group_csw") === null) return sayPlay(`${w} is not in the CSW word list.`, true);
    if (refused(found[0], "strict")) return sayPlay(`${w} is flagged ${refused(found[0], "strict")}: puzzles keep to clean words.`, true);
    ends.push(found[0]);
  }
  const [s, t] = ends;
  if (s === t) return sayPlay(`${a} and ${b} are the same word: a puzzle needs two.`, true);
  if (a.length !== b.length) return sayPlay(`${a} has ${a.length} letters and ${b} has ${b.length}: a puzzle's words have one length.`, true);
  if (at(s, "group_csw") !== at(t, "group_csw")) return sayPlay(`No puzzle from ${a} to ${b}: no ladder joins them (they are in different groups).`, true);
  game.dist = distancesTo(t);
  if (!game.dist.has(s)) return sayPlay(`No puzzle from ${a} to ${b}: every ladder steps on a flagged word.`, true);
  Object.assign(game, { start: s, end: t, path: [s], hints: 0, done: false });
  $("p-goal").textContent = `${a} → ${b}` + (about ? ` (${about})` : "");
  $("p-rungs").appendChild(await rung(s));
  $("p-form").hidden = false;
  const link = new URL(location.href);
  link.search = `?play=${encodeURIComponent(a)}-${encodeURIComponent(b)}`;
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
  if (!found || at(found[0], "group_csw") === null) return sayPlay(`${w || "An empty word"} is not in the CSW word list.`, true);
  const id = found[0];
  if (w.length !== was.length) return sayPlay(`${w} has ${w.length} letters: every rung has ${was.length}.`, true);
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
async function offerPuzzles() {
  const list = await getJSON(state.manifest.puzzles);
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
}
for (const id of ["p-length", "p-steps", "p-difficulty"]) {
  $(id).addEventListener("change", () => offerPuzzles().catch((err) => sayPlay(err.message, true)));
}

$("p-new").addEventListener("click", () => newPuzzle(null).catch((err) => sayPlay(err.message, true)));
$("p-daily").addEventListener("click", () => newPuzzle(new Date().toISOString().slice(0, 10))
  .catch((err) => sayPlay(err.message, true)));

// Offline on request: every file of this export into the service worker's cache (named by the version).
async function keepOffline() {
  const m = state.manifest, bar = $("keep-progress"), listing = await getJSON(m.files);
  const names = ["./", "data/manifest.json", ...Object.keys(listing)];
  const cache = await caches.open(`ladders-${m.version}`);
  let done = 0, bytes = 0, next = 0;
  $("keep").disabled = true; bar.hidden = false; bar.max = m.bytes;
  const worker = async () => {
    while (next < names.length) {
      const name = names[next++], url = new URL(name, location.href).href;
      if (!(await cache.match(url))) {
        const response = await fetch(url, { cache: "no-cache" });
        if (!response.ok) throw new Error(`${name}: ${response.status}`);
        await cache.put(url, response);
      }
      bytes += listing[name] ?? 0; bar.value = bytes; done++;
      $("keep-status").textContent = `${done} of ${names.length} files`;
    }
  };
  try {
    await Promise.all([1, 2, 3, 4].map(worker));
    // Marked kept, then the copies of older exports let go: only now that this one is whole (sw.js).
    await cache.put(new URL("ladders-kept-for-offline-use", location.href).href, new Response(m.version));
    for (const name of await caches.keys()) {
      if (name.startsWith("ladders-") && name !== `ladders-${m.version}`) await caches.delete(name);
    }
    $("keep-status").textContent = `Kept for offline use: ${(m.bytes / 1e6).toFixed(1)} MB.`;
    document.body.dataset.offline = "kept";
  } catch (err) {
    $("keep-status").textContent = `Could not keep everything: ${err.message}. Try again when online.`;
    $("keep").disabled = false;
  }
}

$("keep").addEventListener("click", keepOffline);

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").then(() => {
    $("offline").hidden = false;
  }).catch(() => {});
}

load().then(async () => {
  const q = new URLSearchParams(location.search);
  $("p-new").disabled = false; $("p-daily").disabled = false;
  await offerPuzzles();
  const shared = /^([A-Za-z]+)-([A-Za-z]+)$/.exec(q.get("play") ?? "");
  if (shared) return startPuzzle(shared[1], shared[2], "");
  if (q.has("daily")) {  // a real calendar date, as the page writes it: 2026-11-23
    const date = q.get("daily"), parsed = new Date(`${date}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || isNaN(parsed) || parsed.toISOString().slice(0, 10) !== date) {
      return sayPlay(`?daily=${date.slice(0, 20)} is not a date: write it as 2026-11-23.`, true);
    }
    return newPuzzle(date);
  }
  if (q.get("from") && q.get("to")) {
    $("from").value = q.get("from"); $("to").value = q.get("to");
    const listed = state.manifest.lexicons ?? ["csw", "owl"];
    $("lexicon").value = listed.includes(q.get("lexicon")) ? q.get("lexicon") : listed[0];
    $("edit").checked = q.get("edit") === "1";
    $("clean").value = ["off", "on"].includes(q.get("clean")) ? q.get("clean") : "strict";
    return solve(q.get("from"), q.get("to"), $("lexicon").value, $("edit").checked, $("clean").value);
  }
}).catch((err) => say(`Could not load the dictionary: ${err.message}`, true))
  .finally(() => { document.body.dataset.ready = "1"; });
