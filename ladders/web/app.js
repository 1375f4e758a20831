// The static word-ladder solver's start, the last of the page's scripts (index.html loads words.js,
// search.js, view.js, solve.js, play.js, offline.js and this one in order, sharing one global scope):
// it fetches data/manifest.json, then does what the address asks.
// ?from=COLD&to=WARM[&lexicon=owl][&edit=1][&clean=off|on|strict] solves on load (links can be shared);
// ?play=START-END starts a shared puzzle; ?daily=YYYY-MM-DD a date's puzzle.
"use strict";

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

load().then(async () => {
  const q = new URLSearchParams(location.search);
  $("p-new").disabled = false; $("p-daily").disabled = false;
  const playing = await offerPuzzles();
  if (!playing && (q.has("play") || q.has("daily"))) return say("This export has no puzzles: its lists hold none.", true);
  // START-END: the words as typed; startPuzzle folds them by the alphabet (or says which character it refuses).
  const shared = /^([^-]+)-([^-]+)$/.exec(q.get("play") ?? "");
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
