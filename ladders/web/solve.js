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
    return say(`${a} has ${letterCount(a)} letters and ${b} has ${letterCount(b)}: tick "insert and delete letters too".`, true);
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
  // As `ladders solve` says it: the two ladders once when they are the same words; when no ladder keeps to
  // everyday words (the manifest's everyday label), the least-costly one is the least-rare, not "common".
  const everyday = found.common.every((u) => at(u, "label") === everydayLabel());
  const same = found.common.length === found.shortest.length && found.common.every((u, k) => u === found.shortest[k]);
  const rare = (sum) => `, rareness ${sum.toLocaleString("en")}`;
  const second = everyday ? "Common-word ladder" : "Least-rare ladder";
  answers.append(await render(same ? `Shortest ladder, ${everyday ? "all everyday words too" : "also the least-rare one"}`
    : "Shortest ladder", found.shortest, rare(found.shortestCost)));
  if (!same) answers.append(await render(second, found.common, rare(found.cost)));
  answers.dataset.same = same ? "1" : "0"; answers.dataset.everyday = everyday ? "1" : "0";
  // Said once the ladders show (their definitions fetched), not before.
  const missing = answers.querySelector(".not-loaded") ? " Some definitions could not be loaded." : "";
  const none = everyday ? "" : " No ladder of everyday words joins them.";
  say(`${a} to ${b}: solved in ${ms.toFixed(1)} ms.${none}${missing}`, Boolean(missing));
  document.body.dataset.solved = `${a}-${b}`;
}

// The address says the pair asked (a link to share, and what a reload answers: the page reloads itself
// when a re-export removed a file it needs, and must then answer the pair typed, not the one it opened on).
function remember(from, to, lexicon, edit, clean) {
  const q = new URLSearchParams({ from: String(from).trim(), to: String(to).trim() });
  if (lexicon !== (state.manifest.lexicons ?? ["csw"])[0]) q.set("lexicon", lexicon);
  if (edit) q.set("edit", "1");
  if (clean !== "strict") q.set("clean", clean);
  history.replaceState(null, "", `${location.pathname}?${q}`);
}

$("ask").addEventListener("submit", (event) => {
  event.preventDefault();
  remember($("from").value, $("to").value, $("lexicon").value, $("edit").checked, $("clean").value);
  solve($("from").value, $("to").value, $("lexicon").value, $("edit").checked, $("clean").value)
    .catch((err) => say(`Could not fetch the words (offline?): ${err.message}`, true));
});
