// The solver form: the list selector, a pair of typed words checked and refused with a clear message, the
// two ladders searched (search.js) and shown (view.js). Strict unless asked otherwise: no offensive word,
// and no everyday word with a vulgar sense; on: no offensive word.
"use strict";

function say(text, isError = false) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
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

// An edit group may span buckets (words of several lengths): fetch every one before searching it.
async function loadSpan(column, group) {
  const m = state.manifest, spans = await getJSON(m.spans[column][Math.floor(group / m.span)]);
  const list = Object.prototype.hasOwnProperty.call(spans, String(group)) ? spans[String(group)] : [];
  await Promise.all(list.map(bucket));
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
