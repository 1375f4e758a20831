// What the solver and play mode share on screen: an element by id, the one rule for a typed word, and a
// ladder drawn as rungs (each word, its label and its definition, fetched on demand through words.js).
// Text from the data is set as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);

// A typed word's one rule, as in `ladders solve` and the PHP solver (docs/languages.md): ASCII whitespace around
// it dropped, NFC, then every character looked up in the export's alphabet (data/manifest.json's alphabet.table:
// each character a typed word may hold -> the letters it is written as), the word being their concatenation;
// any other character refuses the word. No case mapping beyond the table: toUpperCase alone maps the ligature
// "\ufb01" to "FI" and the dotless "\u0131" to "I", words never typed.
const typed = (text) => String(text).replace(/^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g, "").normalize("NFC");
// A Map, not the object: an object's inherited keys ("constructor", "__proto__") would answer as letters.
const alphabetTable = () => new Map(Object.entries(state.manifest.alphabet.table));
const letterCount = (word) => [...word].length;  // letters, not UTF-16 code units

function normalise(text) {
  const table = alphabetTable();
  let word = "";
  for (const c of typed(text)) {
    if (!table.has(c)) return null;
    word += table.get(c);
  }
  return word || null;
}

// Why normalise refused `text`: the first character outside the alphabet, shown with its code point.
function notLetters(text) {
  const w = typed(text), table = alphabetTable(), { name, letters } = state.manifest.alphabet;
  if (!w) return `An empty word is not a word of ${name} letters.`;
  const chars = [...w], i = chars.findIndex((c) => !table.has(c));
  const code = `U+${chars[i].codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  const shown = chars.length > 40 ? chars.slice(0, 40).join("") + "..." : w;
  return `"${shown}": "${chars[i]}" (${code}, character ${i + 1}) is not a letter of the ${name} alphabet (${letters}) nor folded into one.`;
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
