<?php
// A reference word-ladder solver over the MySQL/MariaDB dump of `ladders export-sql`.
//
// One query loads the group both words share (its words and their links). The two ladders are those of
// `ladders solve` (README, "How the two ladders are chosen"): the shortest is the fewest steps, then the
// least sum of rareness (a breadth-first search keeping each word's least sum over its shortest paths);
// the common-word ladder costs each everyday word (SCOWL level up to EVERYDAY_LEVEL) 1 and any other
// word its rareness: Dijkstra on (sum of costs, steps, sum of rareness).
//
//   php ladder.php --socket=/run/mysqld/mysqld.sock --db=ladders [--user=U] [--password=P]
//                  [--host=H] [--lexicon=NAME] [--edit] [--clean] [--strict] START END
// (NAME: any lexicon the dump holds, each an in_NAME column of table words; csw by default)
//
// --clean never steps on a word flagged offensive; --strict (implying --clean) nor on an everyday word
// flagged vulgar_sense.
//
// Prints one JSON object: {"from", "to", "shortest": {"steps", "rareness", "words"}, "common": {"steps", "cost",
// "words": [{"word", "rareness", "definition"}]}}. Every failure prints one JSON object {"error"} (never
// a PHP warning or stack trace) and exits with the code `ladders` uses for its kind:
//   2 bad usage (an unknown option too); 3 no complete ladders dump in that database (unknown database,
//   a table or column missing, a load cut short: no row in ladders_complete; a rareness below 1);
//   4 cannot reach the server (socket, host, credentials; no answer within 10 s to connect, 20 s a reply)
//   or another server error; 5 PHP itself failed
//   (memory_limit: a fatal error, reported at shutdown);
//   10 unknown word (a word that is not letters A-Z, in any encoding, included); 11 lengths differ;
//   12 different groups (or no clean ladder); 13 the same word; 14 an end word flagged at the clean level
//   asked for (--clean: offensive; --strict: vulgar_sense too).
// The JSON is ASCII (\uXXXX escapes), bytes that are not UTF-8 shown as U+FFFD: safe for a terminal.

// The config's rareness_labels.common as built by default: a word of SCOWL's main lists up to this level
// is everyday (stage 3 counts variant-only words above it). A build with another value needs it here too.
const EVERYDAY_LEVEL = 35;

// PHP prints no error of its own: a notice never lands inside the JSON on stdout, and a fatal error
// (memory_limit) is the one JSON object of the shutdown function below, not twice "PHP Fatal error".
ini_set("display_errors", "0");
ini_set("log_errors", "0");
// Warnings (a bad --host) name what they were given, control bytes included: they go through say() to
// stderr as JSON, inert, instead of PHP's own lines.
set_error_handler(function (int $level, string $message): bool {
    fwrite(STDERR, json_encode(["warning" => $message], JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
    return true;
});
// A fatal error (memory_limit) cannot be caught; at shutdown it is still one JSON object and exit 5.
register_shutdown_function(function (): void {
    $e = error_get_last();
    if ($e !== null && in_array($e["type"], [E_ERROR, E_CORE_ERROR, E_COMPILE_ERROR], true)) {
        foreach (["words", "adjacent", "parent", "best", "heap", "queue", "index", "flagged", "done"] as $big) {
            unset($GLOBALS[$big]);  // room to write the answer when the memory ran out
        }
        say(["error" => "the PHP solver failed: " . $e["message"]]);
        exit(5);
    }
});

function say(array $answer): void {
    echo json_encode($answer, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}

function refuse(int $code, string $message): void {
    say(["error" => $message]);
    exit($code);
}

mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
set_exception_handler(function (Throwable $e): void {
    // 1049 unknown database, 1146 no such table, 1054 no such column: the database holds no ladders dump.
    $missing = $e instanceof mysqli_sql_exception && in_array($e->getCode(), [1049, 1146, 1054], true);
    refuse($missing ? 3 : 4, ($missing ? "no ladders dump here: " : "database error: ") . $e->getMessage());
});

// Options, before or after the two words (as in the README), `--name=value` or `--name value`; `--`
// ends them. An unknown option, a value given to a flag, a flag given a value or an option given twice
// is a usage error (exit 2): getopt() ignored unknown ones and stopped at the first word.
const VALUED = ["socket", "db", "user", "password", "host", "lexicon"];
const FLAGS = ["edit", "clean", "strict"];
const USAGE = "usage: php ladder.php --socket=S --db=D [--lexicon=NAME] [--edit] [--clean] [--strict] START END";
$opts = [];
$args = [];
for ($i = 1, $n = count($argv); $i < $n; $i++) {
    $arg = $argv[$i];
    if ($arg === "--") {
        array_push($args, ...array_slice($argv, $i + 1));
        break;
    }
    if (strlen($arg) < 2 || $arg[0] !== "-") {
        $args[] = $arg;
        continue;
    }
    [$name, $value] = array_pad(explode("=", substr($arg, 2), 2), 2, null);
    if (substr($arg, 0, 2) !== "--" || !in_array($name, [...VALUED, ...FLAGS], true)) {
        refuse(2, "unknown option $arg; " . USAGE);
    }
    if (array_key_exists($name, $opts)) {
        refuse(2, "--$name given more than once");
    }
    if (in_array($name, FLAGS, true)) {
        if ($value !== null) {
            refuse(2, "--$name takes no value");
        }
        $value = true;
    } elseif ($value === null) {
        if ($i + 1 >= $n) {
            refuse(2, "--$name needs a value");
        }
        $value = $argv[++$i];
    }
    $opts[$name] = $value;
}
if (count($args) != 2) {
    refuse(2, USAGE);
}
$lexicon = strtolower($opts["lexicon"] ?? "csw");
if (!preg_match('/^[a-z][a-z0-9_]{0,31}$/D', $lexicon)) {  // a lexicon's name (docs/lexicons.md): safe in SQL
    refuse(2, "unknown lexicon " . json_encode($lexicon) . ": a lexicon's name is a-z, 0-9 and _");
}
$edit = isset($opts["edit"]);
// The flag columns whose words a ladder at the asked clean level never steps on.
$refused = isset($opts["strict"]) ? ["offensive", "vulgar_sense"] : (isset($opts["clean"]) ? ["offensive"] : []);
$column = "group_$lexicon" . ($edit ? "_edit" : "");
// A word's one rule, the same in `ladders solve` and the web page: ASCII whitespace around it dropped,
// a-z folded to A-Z, anything else refused (no Unicode case mapping: the ligature "fi" is no FI).
[$start, $end] = array_map(fn($w) => strtoupper(trim($w, " \t\n\r\x0B\x0C")), $args);
foreach ([$start, $end] as $word) {
    if (!preg_match('/^[A-Z]+$/D', $word)) {
        refuse(10, ($word === "" ? "an empty word" : "\"$word\"") . " is not a word of letters A-Z");
    }
}

try {
    // Bounded waits: a server that accepts and never answers (stopped, hung) held the solver for ever
    // (mysqlnd's read timeout is a day). Connecting may take 10 s, each answer 20 s (the largest group's
    // query takes well under one).
    $db = mysqli_init();
    $db->options(MYSQLI_OPT_CONNECT_TIMEOUT, 10);
    $db->options(MYSQLI_OPT_READ_TIMEOUT, 20);
    $db->real_connect($opts["host"] ?? "localhost", $opts["user"] ?? "root", $opts["password"] ?? "",
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
// The lexicons the dump holds: its words table's in_<name> columns.
$held = array_map(fn($row) => substr($row[0], 3), $db->query(
    "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'words' "
    . "AND COLUMN_NAME LIKE 'in\\_%' ORDER BY ORDINAL_POSITION")->fetch_all());
if ($held && !in_array($lexicon, $held, true)) {
    refuse(2, "unknown lexicon $lexicon: this dump holds " . implode(", ", $held));
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
        refuse(10, "$word is not in the " . strtoupper($lexicon) . " word list");
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
$query = $db->prepare("SELECT w.id, w.word, w.rareness, w.scowl_level, w.definition, w.offensive, w.vulgar_sense, l.dst, l.kind "
                      . "FROM words w LEFT JOIN links l ON l.src = w.id WHERE w.$column = ?");
$query->bind_param("i", $group);
$query->execute();
foreach ($query->get_result() as $row) {
    $id = $row["id"];
    $words[$id] ??= ["word" => $row["word"], "rareness" => (int)$row["rareness"], "definition" => $row["definition"]];
    if ($words[$id]["rareness"] < 1) {  // the search's costs must grow: 0 or less would loop for ever
        refuse(3, "the words table is damaged: " . $row["word"] . " has rareness " . $row["rareness"]
                  . " (rareness is 1 or more): load the dump again");
    }
    $everyday = $row["scowl_level"] !== null && (int)$row["scowl_level"] <= EVERYDAY_LEVEL;
    $cost[$id] ??= $everyday ? 1 : (int)$row["rareness"];
    foreach ($refused as $flag) {
        if ((int)$row[$flag] === 1) {
            $flagged[$id] ??= $flag;
        }
    }
    $adjacent[$id] ??= [];
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
        refuse(14, $words[$v]["word"] . " is flagged " . $flagged[$v] . ": clean ladders neither start nor end on such a word");
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
// least rareness sum is final before it is itself expanded.
$parent = [$s => null];
$dist = [$s => 0];
$sum = [$s => $words[$s]["rareness"]];
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
            [$dist[$u], $sum[$u], $parent[$u]] = [$dist[$v] + 1, $c, $v];
            $queue->enqueue($u);
        } elseif ($dist[$u] === $dist[$v] + 1 && $c < $sum[$u]) {
            [$sum[$u], $parent[$u]] = [$c, $v];
        }
    }
}
if (!array_key_exists($t, $parent)) {
    refuse(12, "no clean ladder: every ladder from $start to $end steps on a flagged word");
}
$shortest = path_to($parent, $t);

// Common: Dijkstra on (sum of costs, steps, sum of rareness), least first.
$best = [$s => [$cost[$s], 0, $words[$s]["rareness"]]];
$parent = [$s => null];
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
        $candidate = [$c + $cost[$u], $steps + 1, $rare + $words[$u]["rareness"]];
        if (!isset($best[$u]) || $candidate < $best[$u]) {
            $best[$u] = $candidate;
            $parent[$u] = $v;
            $heap->insert($u, array_map(fn($x) => -$x, $candidate));
        }
    }
}
$common = path_to($parent, $t);

say([
    "from" => $start, "to" => $end,
    "shortest" => ["steps" => count($shortest) - 1, "rareness" => $sum[$t],
                   "words" => array_map(fn($id) => $words[$id]["word"], $shortest)],
    "common" => ["steps" => count($common) - 1, "cost" => $best[$t][2],
                 "words" => array_map(fn($id) => $words[$id], $common)],
]);
