// The data the page reads, as `ladders export-web` writes it: data/manifest.json (fetched fresh on every
// load, by app.js) names content-hashed files, fetched only when needed and cacheable forever:
// - data/i/*: the word index, one file per length and first letter: each word's id and bucket;
// - data/b/*: buckets of whole substitution groups: their words, rareness, label, flags, groups and links;
// - data/defs/*: definitions, CHUNK words of a bucket per file, fetched for the rungs shown;
// - data/s/*: for edit groups that span buckets, which buckets (an edit search loads them all).
// The first of the page's scripts (index.html loads them in order, sharing one global scope): `state`
// and the readers of a word (lookup, at, neighbours, refused, definition) that the others use.
"use strict";

const state = { manifest: null, files: new Map(), buckets: new Map(), where: new Map() };
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
  const name = state.manifest.index[`${[...word].length}:${[...word][0]}`];  // letters, as export-web counts them
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

function neighbours(v, edit) {
  const [b, p] = state.where.get(v), out = [];
  for (let k = b.subPtr[p]; k < b.subPtr[p + 1]; k++) out.push(b.sub[k]);
  if (edit) for (let k = b.indelPtr[p]; k < b.indelPtr[p + 1]; k++) out.push(b.indel[k]);
  return out.filter((u) => state.where.has(u));  // a bucket not loaded holds no word of this group
}

// The label number of everyday words (label "common", at the export's own cut-off), the words a
// common-word ladder keeps to. From the manifest, as every setting the solvers share.
function everydayLabel() {
  return state.manifest.everyday ?? 0;
}

// Why a word is refused at a clean level ("on" or "strict"), or null when it is allowed.
function refused(u, clean) {
  const [b, p] = state.where.get(u);
  if (clean !== "off" && b.offensive.has(p)) return "offensive";
  if (clean === "strict" && b.vulgar_sense.has(p)) return "vulgar_sense";
  return null;
}

// A word's definition; null when it has none, undefined when its file could not be fetched.
async function definition(id) {
  const [b, p] = state.where.get(id);
  const chunk = await getJSON(b.defs[Math.floor(p / b.chunk)]).catch(() => undefined);
  return chunk === undefined ? undefined : chunk[p % b.chunk] ?? null;
}
