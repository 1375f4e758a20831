<?php
// The second half of ladder.php (which reads the question and defines refuse() and answer()): the database,
// the two words' rows, the group's one query, the two searches with their counts of exact ties, the answer.
// Reads $opts, $lexicon, $edit, $level, $refused, $column, $start and $end; never run alone.

if (!defined("HTTP_STATUS")) {
    exit(2);  // run on its own (or served by a web server as a page of its own): it answers nothing
}

try {
    // Bounded waits: a server that accepts and never answers (stopped, hung) held the solver for ever
    // (mysqlnd's read timeout is a day). Connecting may take 10 s, each answer 20 s (the largest group's
    // query takes well under one).
    $db = mysqli_init();
    $db->options(MYSQLI_OPT_CONNECT_TIMEOUT, 10);
    $db->options(MYSQLI_OPT_READ_TIMEOUT, 20);
    // The user by default: the one running PHP, as the mariadb client does (a server of make sql-up knows it
    // through its socket).
    $me = function_exists("posix_geteuid") ? (posix_getpwuid(posix_geteuid())["name"] ?? "root") : "root";
    $db->real_connect($opts["host"] ?? "localhost", $opts["user"] ?? $me, $opts["password"] ?? "",
                      $opts["db"] ?? "ladders", 0, $opts["socket"] ?? null);
} catch (mysqli_sql_exception $e) {
    if ($e->getCode() == 1049) {
        throw $e;  // the server answered: no such database, so no dump here (exit 3, below)
    }
    refuse(4, "cannot connect to the database server: " . $e->getMessage());
}
$db->set_charset("utf8mb4");
// The dump writes its one row of ladders_complete last, when every check of the load held: a dump cut
// short (between two statements, so that mysql exited 0) leaves none, and its tables are not trusted.
try {
    $complete = $db->query("SELECT COUNT(*) FROM ladders_complete")->fetch_row()[0];
} catch (mysqli_sql_exception $e) {
    $complete = $e->getCode() == 1146 ? 0 : throw $e;
}
if ((int)$complete !== 1) {
    refuse(3, "no complete ladders dump loads here (table ladders_complete has no row: the load was cut "
              . "short or failed its checks): load the dump again");
}
// The settings the export was built with (the dump's ladders_settings): each label's highest SCOWL level,
// lowest first, and the cost of an everyday word in a common-word ladder.
$settings = array_column($db->query("SELECT name, value FROM ladders_settings")->fetch_all(), 1, 0);
$cutoffs = [];
foreach (["common", "uncommon", "rare"] as $name) {
    if (!isset($settings["label_$name"])) {
        refuse(3, "the dump's ladders_settings has no label_$name: load a dump of this version again");
    }
    $cutoffs[$name] = (int)$settings["label_$name"];
}
asort($cutoffs);
// The common-word rule's cost of a word by its label (cost_common, cost_uncommon); any other word costs its rareness.
$costs = [];
foreach ($settings as $name => $value) {
    if (str_starts_with($name, "cost_")) {
        $costs[substr($name, 5)] = (int)$value;
    }
}
if (!isset($costs["common"])) {
    refuse(3, "the dump's ladders_settings has no cost_common: load a dump of this version again");
}

function label(?int $level, array $cutoffs): string {
    if ($level !== null) {
        foreach ($cutoffs as $name => $top) {
            if ($level <= $top) {
                return $name;
            }
        }
    }
    return "obscure";
}

// The typed words in the export's alphabet (ladder.php's fold_word): the dump's ladders_alphabet, every
// character a typed word may hold -> its letters, and ladders_language (its language, name and letters).
$table = array_column($db->query("SELECT ch, letters FROM ladders_alphabet")->fetch_all(), 1, 0);
$about = array_column($db->query("SELECT name, value FROM ladders_language")->fetch_all(), 1, 0);
if (!$table || !isset($about["letters"])) {
    refuse(3, "the dump's ladders_alphabet is empty: load a dump of this version again");
}
$letters = preg_split('//u', $about["letters"], -1, PREG_SPLIT_NO_EMPTY);
[$start, $end] = [fold_word($start, $table, $about), fold_word($end, $table, $about)];

// The lexicons the dump holds: its words table's in_<name> columns.
$held = array_map(fn($row) => substr($row[0], 3), $db->query(
    "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'words' "
    . "AND COLUMN_NAME LIKE 'in\\_%' ORDER BY ORDINAL_POSITION")->fetch_all());
if ($held && !in_array($lexicon, $held, true)) {
    refuse(2, "unknown lexicon $lexicon: this dump holds " . implode(", ", $held));
}

// Up to 5 words of the lexicon one letter away (changed, added, dropped, or two neighbours swapped), the
// least rare first: one indexed query. Letters are the alphabet's (characters, not bytes).
function suggestions(mysqli $db, string $word, string $lexicon, array $letters): array {
    $near = [];
    $w = preg_split('//u', $word, -1, PREG_SPLIT_NO_EMPTY);
    $at = fn(int $from, ?int $count = null) => implode("", array_slice($w, $from, $count));
    for ($i = 0, $n = count($w); $i <= $n; $i++) {
        foreach ($letters as $c) {
            $near[] = $at(0, $i) . $c . $at($i);
            if ($i < $n) {
                $near[] = $at(0, $i) . $c . $at($i + 1);
            }
        }
        if ($i < $n) {
            $near[] = $at(0, $i) . $at($i + 1);
        }
        if ($i + 1 < $n) {
            $near[] = $at(0, $i) . $w[$i + 1] . $w[$i] . $at($i + 2);
        }
    }
    $near = array_values(array_diff(array_unique($near), [$word]));
    $query = $db->prepare("SELECT word FROM words WHERE word IN (" . implode(",", array_fill(0, count($near), "?"))
                          . ") AND in_$lexicon = 1 ORDER BY rareness, word LIMIT 5");
    $query->bind_param(str_repeat("s", count($near)), ...$near);
    $query->execute();
    return array_column($query->get_result()->fetch_all(), 0);
}

$ends = [];
$query = $db->prepare("SELECT word, length, $column FROM words WHERE word IN (?, ?) AND in_$lexicon = 1");
$query->bind_param("ss", $start, $end);
$query->execute();
foreach ($query->get_result() as $row) {
    $ends[$row["word"]] = $row;
}
foreach ([$start, $end] as $word) {
    if (!isset($ends[$word])) {
        $near = count(preg_split('//u', $word, -1, PREG_SPLIT_NO_EMPTY)) <= 64 ? suggestions($db, $word, $lexicon, $letters) : [];
        refuse(10, "$word is not in the " . strtoupper($lexicon) . " word list"
                   . ($near ? "; did you mean " . implode(", ", $near) . "?" : ""),
               ["word" => $word, "suggestions" => $near]);
    }
}
if ($start === $end) {
    refuse(13, "$start and $end are the same word: a ladder needs two");
}
if (!$edit && $ends[$start]["length"] != $ends[$end]["length"]) {
    refuse(11, "$start and $end differ in length: --edit also inserts and deletes letters");
}
$group = $ends[$start][$column];
if ($group === null || $ends[$end][$column] === null) {
    refuse(3, "the words table is damaged: a word of " . strtoupper($lexicon) . " has no $column: load the dump again");
}
if ($group != $ends[$end][$column]) {
    refuse(12, "no ladder: $start and $end are in different groups");
}

// The one query: the group's words with their links.
$words = [];
$adjacent = [];
$flagged = [];  // id => the first flag for which the clean level refuses the word
$cost = [];  // id => the word's cost in a common-word ladder
$query = $db->prepare("SELECT w.id, w.word, w.rareness, w.scowl_level, w.definition, w.offensive, w.vulgar_sense, "
                      . "l.dst, l.kind FROM words w LEFT JOIN links l ON l.src = w.id WHERE w.$column = ?");
$query->bind_param("i", $group);
$query->execute();
foreach ($query->get_result() as $row) {
    $id = $row["id"];
    if (!isset($words[$id])) {
        $label = label($row["scowl_level"] === null ? null : (int)$row["scowl_level"], $cutoffs);
        $words[$id] = ["word" => $row["word"], "label" => $label, "rareness" => (int)$row["rareness"],
                       "definition" => $row["definition"]];
        if ($words[$id]["rareness"] < 1) {  // the search's costs must grow: 0 or less would loop for ever
            refuse(3, "the words table is damaged: " . $row["word"] . " has rareness " . $row["rareness"]
                      . " (rareness is 1 or more): load the dump again");
        }
        $cost[$id] = $costs[$label] ?? $words[$id]["rareness"];
        foreach ($refused as $flag) {
            if ((int)$row[$flag] === 1) {
                $flagged[$id] ??= $flag;
            }
        }
        $adjacent[$id] = [];
    }
    if ($row["dst"] !== null && ($edit || $row["kind"] === "sub")) {
        $adjacent[$id][] = (int)$row["dst"];
    }
}
$index = [];
foreach ($words as $id => $w) {
    $index[$w["word"]] = $id;
}
foreach ($adjacent as $id => $next) {  // an OWL group's words may link to CSW-only words: not in the group
    $adjacent[$id] = isset($flagged[$id]) ? []
        : array_values(array_filter($next, fn($u) => isset($words[$u]) && !isset($flagged[$u])));
}
$s = $index[$start];
$t = $index[$end];
foreach ([$s, $t] as $v) {
    if (isset($flagged[$v])) {
        $option = HTTP ? ($level === "on" ? "clean=1" : "the default") : ($level === "on" ? "--clean" : "the default");
        refuse(14, $words[$v]["word"] . " is flagged " . $flagged[$v] . ": at $option, ladders neither start nor "
                   . "end on such a word" . (HTTP ? " (all=1 allows every word)" : " (--all allows every word)"));
    }
}

function path_to(array $parent, int $t): array {
    $path = [$t];
    while ($parent[$path[0]] !== null) {
        array_unshift($path, $parent[$path[0]]);
    }
    return $path;
}

// Shortest: breadth-first, layer by layer; a word's predecessors are all in the layer before, so its
// least rareness sum and the number of ladders reaching it with that sum are final before it is expanded.
$parent = [$s => null];
$dist = [$s => 0];
$sum = [$s => $words[$s]["rareness"]];
$ways = [$s => 1];
$queue = new SplQueue();
$queue->enqueue($s);
while (!$queue->isEmpty()) {
    $v = $queue->dequeue();
    if (isset($dist[$t]) && $dist[$v] >= $dist[$t]) {
        break;
    }
    foreach ($adjacent[$v] as $u) {
        $c = $sum[$v] + $words[$u]["rareness"];
        if (!isset($dist[$u])) {
            [$dist[$u], $sum[$u], $parent[$u], $ways[$u]] = [$dist[$v] + 1, $c, $v, $ways[$v]];
            $queue->enqueue($u);
        } elseif ($dist[$u] === $dist[$v] + 1) {
            if ($c < $sum[$u]) {
                [$sum[$u], $parent[$u], $ways[$u]] = [$c, $v, $ways[$v]];
            } elseif ($c === $sum[$u]) {
                $ways[$u] += $ways[$v];
            }
        }
    }
}
if (!array_key_exists($t, $parent)) {
    refuse(12, "no clean ladder: every ladder from $start to $end steps on a word flagged "
               . implode(" or ", $refused));
}
$shortest = path_to($parent, $t);
$shortest_ties = $ways[$t];

// Common: Dijkstra on (sum of costs, steps, sum of rareness), least first; all three grow along a ladder,
// so a word's predecessors on its best ladders are all done before it, and so is its count of them.
$best = [$s => [$cost[$s], 0, $words[$s]["rareness"]]];
$parent = [$s => null];
$ways = [$s => 1];
$done = [];
$heap = new SplPriorityQueue();
$heap->insert($s, array_map(fn($x) => -$x, $best[$s]));
while (!$heap->isEmpty()) {
    $v = $heap->extract();
    if (isset($done[$v])) {
        continue;
    }
    $done[$v] = true;
    if ($v === $t) {
        break;
    }
    [$c, $steps, $rare] = $best[$v];
    foreach ($adjacent[$v] as $u) {
        if (isset($done[$u])) {
            continue;
        }
        $candidate = [$c + $cost[$u], $steps + 1, $rare + $words[$u]["rareness"]];
        if (!isset($best[$u]) || $candidate < $best[$u]) {
            [$best[$u], $parent[$u], $ways[$u]] = [$candidate, $v, $ways[$v]];
            $heap->insert($u, array_map(fn($x) => -$x, $candidate));
        } elseif ($candidate === $best[$u]) {
            $ways[$u] += $ways[$v];
        }
    }
}
$common = path_to($parent, $t);

function ladder(array $path, int|float $ties, array $words, array $cost): array {
    $rungs = array_map(fn($id) => $words[$id], $path);
    return [
        "steps" => count($path) - 1,
        "rareness" => array_sum(array_column($rungs, "rareness")),
        "cost" => array_sum(array_map(fn($id) => $cost[$id], $path)),
        "ties" => $ties,
        "everyday" => !in_array(false, array_map(fn($w) => $w["label"] === "common", $rungs), true),
        "words" => $rungs,
    ];
}

answer(0, [
    "from" => $start, "to" => $end, "lexicon" => $lexicon, "edit" => $edit,
    "clean" => $level !== "off", "strict" => $level === "strict",
    "group" => ["column" => $column, "id" => (int)$group, "size" => count($words)],
    "shortest" => ladder($shortest, $shortest_ties, $words, $cost),
    "common" => ladder($common, $ways[$t], $words, $cost),
    "same" => $shortest === $common,
]);
