// The static word-ladder solver: data/lexicon.json (written by `ladders export-web`) holds every word
// with its rareness, label, groups and links as CSR arrays; definitions come from data/defs/N.json,
// fetched for the rungs shown. Shortest: breadth-first search. Common words: Dijkstra on (sum of
// rareness over the ladder's words, steps). Both keep to the group the two words share.
// ?from=COLD&to=WARM[&lexicon=owl][&edit=1][&clean=off|on|strict] solves on load (links can be shared).
// Clean is on unless asked off: no offensive word; strict also avoids everyday words with a vulgar sense.
"use strict";

const state = { data: null, index: null, shards: new Map() };
const $ = (id) => document.getElementById(id);

function say(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

async function load() {
  const started = performance.now();
  const response = await fetch("data/lexicon.json");
  if (!response.ok) throw new Error(`data/lexicon.json: ${response.status}`);
  state.data = await response.json();
  state.index = new Map(state.data.words.map((w, i) => [w, i]));
  document.body.dataset.loadMs = (performance.now() - started).toFixed(1);
  $("solve").disabled = false;
  $("solve").textContent = "Find the ladders";
}

function neighbours(v, edit) {
  const d = state.data, out = [];
  for (let k = d.sub_ptr[v]; k < d.sub_ptr[v + 1]; k++) out.push(d.sub_idx[k]);
  if (edit) for (let k = d.indel_ptr[v]; k < d.indel_ptr[v + 1]; k++) out.push(d.indel_idx[k]);
  return out;
}

class Heap {  // a binary min-heap of [cost, steps, node]
  constructor() { this.a = []; }
  get size() { return this.a.length; }
  less(x, y) { return x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]); }
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
  const d = state.data;
  if (clean !== "off" && d.offensive[u]) return "offensive";
  if (clean === "strict" && d.vulgar_sense[u]) return "vulgar_sense";
  return null;
}

function search(s, t, column, edit, clean) {
  const d = state.data, group = d[column][s];
  const allowed = (u) => d[column][u] === group && !refused(u, clean);
  // Shortest: breadth-first search.
  let parent = new Map([[s, undefined]]);
  const queue = [s];
  for (let head = 0; head < queue.length && !parent.has(t); head++) {
    for (const u of neighbours(queue[head], edit)) {
      if (!parent.has(u) && allowed(u)) { parent.set(u, queue[head]); queue.push(u); }
    }
  }
  if (!parent.has(t)) return null;
  const shortest = pathTo(parent, t);
  // Common words: Dijkstra on (sum of rareness, steps).
  const best = new Map([[s, [d.rareness[s], 0]]]), done = new Set(), heap = new Heap();
  parent = new Map([[s, undefined]]);
  heap.push([d.rareness[s], 0, s]);
  while (heap.size) {
    const [cost, steps, v] = heap.pop();
    if (done.has(v)) continue;
    done.add(v);
    if (v === t) break;
    for (const u of neighbours(v, edit)) {
      if (!allowed(u) || done.has(u)) continue;
      const c = [cost + d.rareness[u], steps + 1], b = best.get(u);
      if (!b || c[0] < b[0] || (c[0] === b[0] && c[1] < b[1])) {
        best.set(u, c); parent.set(u, v); heap.push([c[0], c[1], u]);
      }
    }
  }
  return { shortest, common: pathTo(parent, t), cost: best.get(t)[0] };
}

async function definition(id) {
  const n = Math.floor(id / state.data.shard);
  if (!state.shards.has(n)) {
    state.shards.set(n, fetch(`data/defs/${n}.json`).then((r) => (r.ok ? r.json() : [])).catch(() => []));
  }
  return (await state.shards.get(n))[id % state.data.shard] ?? null;
}

async function render(title, path, extra) {
  const d = state.data, section = document.createElement("div");
  section.className = "ladder";
  const heading = document.createElement("h2");
  heading.textContent = `${title}: ${path.length - 1} step${path.length === 2 ? "" : "s"}${extra}`;
  const list = document.createElement("ol");
  list.setAttribute("aria-label", title);
  for (const id of path) {
    const item = document.createElement("li"), label = d.labels[d.label[id]];
    item.dataset.word = d.words[id];
    item.innerHTML = '<span class="word"></span><span class="label"></span><span class="definition"></span>';
    item.querySelector(".word").textContent = d.words[id];
    item.querySelector(".label").textContent = label;
    item.querySelector(".label").classList.add(label);
    item.querySelector(".definition").textContent = (await definition(id)) ?? "(no definition)";
    list.appendChild(item);
  }
  section.append(heading, list);
  return section;
}

async function solve(from, to, lexicon, edit, clean) {
  const d = state.data, answers = $("answers");
  answers.replaceChildren();
  const a = from.trim().toUpperCase(), b = to.trim().toUpperCase();
  const column = `group_${lexicon}${edit ? "_edit" : ""}`;
  for (const w of [a, b]) {
    const id = state.index.get(w);
    if (!w || id === undefined || d[`group_${lexicon}`][id] === null) {
      return say(`${w || "An empty word"} is not in the ${lexicon.toUpperCase()} word list.`, true);
    }
  }
  const s = state.index.get(a), t = state.index.get(b);
  if (s === t) return say(`${a} and ${b} are the same word: a ladder needs two.`, true);
  if (!edit && a.length !== b.length) {
    return say(`${a} has ${a.length} letters and ${b} has ${b.length}: tick "insert and delete letters too".`, true);
  }
  if (d[column][s] !== d[column][t]) return say(`No ladder: ${a} and ${b} are in different groups.`, true);
  for (const [w, u] of [[a, s], [b, t]]) {
    const why = refused(u, clean);
    if (why) return say(`${w} is flagged ${why}: clean ladders neither start nor end on such a word.`, true);
  }
  const started = performance.now();
  const found = search(s, t, column, edit, clean);
  const ms = performance.now() - started;
  document.body.dataset.solveMs = ms.toFixed(2);
  if (!found) return say(`No clean ladder from ${a} to ${b}: every one steps on a flagged word.`, true);
  say(`${a} to ${b}: solved in ${ms.toFixed(1)} ms.`);
  answers.append(await render("Shortest ladder", found.shortest, ""),
                 await render("Common-word ladder", found.common, `, rareness ${found.cost.toLocaleString("en")}`));
  document.body.dataset.solved = `${a}-${b}`;
}

$("ask").addEventListener("submit", (event) => {
  event.preventDefault();
  solve($("from").value, $("to").value, $("lexicon").value, $("edit").checked, $("clean").value);
});

if ("serviceWorker" in navigator && window.isSecureContext) {  // offline once loaded (sw.js)
  navigator.serviceWorker.register("sw.js").catch(() => {});
}

load().then(() => {
  const q = new URLSearchParams(location.search);
  if (q.get("from") && q.get("to")) {
    $("from").value = q.get("from"); $("to").value = q.get("to");
    $("lexicon").value = q.get("lexicon") === "owl" ? "owl" : "csw";
    $("edit").checked = q.get("edit") === "1";
    $("clean").value = ["off", "strict"].includes(q.get("clean")) ? q.get("clean") : "on";
    return solve(q.get("from"), q.get("to"), $("lexicon").value, $("edit").checked, $("clean").value);
  }
}).catch((err) => say(`Could not load the dictionary: ${err.message}`, true))
  .finally(() => { document.body.dataset.ready = "1"; });
