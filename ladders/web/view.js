// What the solver and play mode share on screen: an element by id, the one rule for a typed word, and a
// ladder drawn as rungs (each word, its label and its definition, fetched on demand through words.js).
// Text from the data is set as text, never as markup.
"use strict";

const $ = (id) => document.getElementById(id);

// A typed word's one rule, as in `ladders solve` and the PHP solver: ASCII whitespace around it dropped,
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
