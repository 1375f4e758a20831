<?php
// A reference word-ladder solver over the MySQL/MariaDB dump of `ladders export-sql`, on the command line
// or over HTTP (the same script under `php -S 127.0.0.1:PORT ladder.php` or any web server).
//
// One query loads the group both words share (its words and their links). The two ladders are those of
// `ladders solve` (README, "How the two ladders are chosen"): the shortest is the fewest steps, then the
// least sum of rareness (a breadth-first search keeping each word's least sum over its shortest paths);
// the common-word ladder costs a word what the dump's cost_<label> gives its label (an everyday word 1, an
// uncommon one 5) and any other word its rareness: Dijkstra on (sum of costs, steps, sum of rareness). The
// label cut-offs and the costs are the dump's table ladders_settings, as the export was built: nothing of the
// config is spelled here.
//
//   php ladder.php --socket=/run/mysqld/mysqld.sock --db=ladders [--user=U] [--password=P]
//                  [--host=H] [--lexicon=NAME] [--edit] [--clean | --all] START END
//   GET /?from=START&to=END[&lexicon=NAME][&edit=1][&clean=1 | &all=1]     (HTTP: the server is named by the
//       environment, LADDERS_SOCKET, LADDERS_DB, LADDERS_USER, LADDERS_PASSWORD, LADDERS_HOST; never a client)
// (NAME: any lexicon the dump holds, each an in_NAME column of table words; csw by default)
//
// Family-safe by default, as `ladders solve` and the web page: a ladder steps on no word flagged offensive
// and no everyday word flagged vulgar_sense (--strict names that default); --clean (clean=1) refuses only
// offensive words; --all (all=1) steps on every word.
//
// Prints one JSON object, the shape of `ladders solve --json` (docs/json.md): {"from", "to", "lexicon",
// "edit", "clean", "strict", "group": {"column", "id", "size"}, "shortest": LADDER, "common": LADDER,
// "same"}, LADDER {"steps", "rareness", "cost", "ties", "everyday", "words": [{"word", "label",
// "rareness", "definition"}]}. Every failure is one JSON object {"error": {"code", "message", ...}} (never
// a PHP warning or stack trace) with the code `ladders` uses for its kind as the exit code (CLI) and an
// HTTP status (HTTP_STATUS below):
//   2 bad usage (an unknown option too); 3 no complete ladders dump in that database (unknown database,
//   a table or column missing, a load cut short: no row in ladders_complete; a rareness below 1);
//   4 cannot reach the server (socket, host, credentials; no answer within 10 s to connect, 20 s a reply)
//   or another server error; 5 PHP itself failed (memory_limit: a fatal error, reported at shutdown);
//   10 unknown word (with "suggestions"; a word holding a character outside the dump's alphabet, or not UTF-8,
//   included, with "char" and "position" naming it: docs/languages.md);
//   11 lengths differ; 12 different groups (or no clean ladder); 13 the same word; 14 an end word flagged
//   at the clean level asked for (offensive; by default vulgar_sense too).
// The JSON is ASCII (\uXXXX escapes), bytes that are not UTF-8 shown as U+FFFD: safe for a terminal.

// HTTP status of each code: 200 found; 400 a question that cannot be answered as asked; 404 no ladder
// exists; 422 an end word the clean level refuses; 503 no dump or no database server; 500 PHP failed.
const HTTP_STATUS = [0 => 200, 2 => 400, 3 => 503, 4 => 503, 5 => 500, 10 => 400, 11 => 400, 12 => 404,
                     13 => 400, 14 => 422];
const HTTP = PHP_SAPI !== "cli";

// PHP prints no error of its own: a notice never lands inside the JSON on stdout, and a fatal error
// (memory_limit) is the one JSON object of the shutdown function below, not twice "PHP Fatal error".
ini_set("display_errors", "0");
ini_set("log_errors", "0");
// Warnings (a bad --host) name what they were given, control bytes included: they go to stderr as JSON,
// inert, instead of PHP's own lines (and nowhere over HTTP: the answer is the one JSON object).
set_error_handler(function (int $level, string $message): bool {
    if (!HTTP) {
        fwrite(STDERR, json_encode(["warning" => $message], JSON_INVALID_UTF8_SUBSTITUTE) . "\n");
    }
    return true;
});
// A fatal error (memory_limit) cannot be caught; at shutdown it is still one JSON object and code 5.
register_shutdown_function(function (): void {
    $e = error_get_last();
    if ($e !== null && in_array($e["type"], [E_ERROR, E_CORE_ERROR, E_COMPILE_ERROR], true)) {
        foreach (["words", "adjacent", "parent", "best", "heap", "queue", "index", "flagged", "done", "ways"] as $big) {
            unset($GLOBALS[$big]);  // room to write the answer when the memory ran out
        }
        refuse(5, "the PHP solver failed: " . $e["message"]);
    }
});

function answer(int $code, array $answer): never {
    $text = json_encode($answer, JSON_INVALID_UTF8_SUBSTITUTE) . "\n";
    if (HTTP) {
        if (!headers_sent()) {
            http_response_code(HTTP_STATUS[$code] ?? 500);
            header("Content-Type: application/json; charset=utf-8");
            header("Cache-Control: no-store");
            header("X-Content-Type-Options: nosniff");
        }
        echo $text;
        exit(0);
    }
    echo $text;
    exit($code);
}

function refuse(int $code, string $message, array $details = []): never {
    answer($code, ["error" => ["code" => $code, "message" => $message] + $details]);
}

mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
set_exception_handler(function (Throwable $e): void {
    // 1049 unknown database, 1146 no such table, 1054 no such column: the database holds no ladders dump.
    $missing = $e instanceof mysqli_sql_exception && in_array($e->getCode(), [1049, 1146, 1054], true);
    refuse($missing ? 3 : 4, ($missing ? "no ladders dump here: " : "database error: ") . $e->getMessage());
});

const VALUED = ["socket", "db", "user", "password", "host", "lexicon"];
const FLAGS = ["edit", "clean", "strict", "all"];
const USAGE = "usage: php ladder.php --socket=S --db=D [--lexicon=NAME] [--edit] [--clean | --all] START END";
const HTTP_USAGE = "usage: ?from=START&to=END[&lexicon=NAME][&edit=1][&clean=1 | &all=1]";

// Options, before or after the two words (as in the README), `--name=value` or `--name value`; `--`
// ends them. An unknown option, a value given to a flag, a flag given a value or an option given twice
// is a usage error (exit 2): getopt() ignored unknown ones and stopped at the first word.
function command_line(array $argv): array {
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
    return [$opts, $args];
}

// The query string, read by hand: PHP's own parsing keeps the last of a name given twice and makes
// `name[]` an array. The database comes from the server's environment, never from a client.
function query_string(string $query): array {
    $opts = [];
    foreach ($query === "" ? [] : explode("&", $query) as $pair) {
        [$name, $value] = array_map("urldecode", array_pad(explode("=", $pair, 2), 2, ""));
        if (!in_array($name, ["from", "to", "lexicon", ...FLAGS], true)) {
            refuse(2, "unknown parameter " . json_encode($name, JSON_INVALID_UTF8_SUBSTITUTE) . "; " . HTTP_USAGE);
        }
        if (array_key_exists($name, $opts)) {
            refuse(2, "parameter $name given more than once");
        }
        if (in_array($name, FLAGS, true)) {
            if (!in_array($value, ["", "1", "true", "0", "false"], true)) {
                refuse(2, "parameter $name is 1 or 0");
            }
            if (!in_array($value, ["0", "false"], true)) {
                $opts[$name] = true;
            }
            continue;
        }
        $opts[$name] = $value;
    }
    if (!isset($opts["from"], $opts["to"])) {
        refuse(2, HTTP_USAGE);
    }
    $args = [$opts["from"], $opts["to"]];
    unset($opts["from"], $opts["to"]);
    foreach (["socket", "db", "user", "password", "host"] as $name) {
        $value = getenv("LADDERS_" . strtoupper($name));
        if ($value !== false && $value !== "") {
            $opts[$name] = $value;
        }
    }
    return [$opts, $args];
}

if (HTTP && !in_array($_SERVER["REQUEST_METHOD"] ?? "GET", ["GET", "HEAD"], true)) {
    refuse(2, "only GET: " . HTTP_USAGE);
}
[$opts, $args] = HTTP ? query_string($_SERVER["QUERY_STRING"] ?? "") : command_line($argv);
if (isset($opts["all"]) && (isset($opts["clean"]) || isset($opts["strict"]))) {
    refuse(2, "all (every word) and clean or strict (some refused) ask for two things: give one");
}
$lexicon = strtolower($opts["lexicon"] ?? "csw");
if (!preg_match('/^[a-z][a-z0-9_]{0,31}$/D', $lexicon)) {  // a lexicon's name (docs/lexicons.md): safe in SQL
    refuse(2, "unknown lexicon " . json_encode($lexicon, JSON_INVALID_UTF8_SUBSTITUTE)
              . ": a lexicon's name is a-z, 0-9 and _");
}
$edit = isset($opts["edit"]);
// The clean level, family-safe unless asked: the flag columns whose words a ladder never steps on.
$level = isset($opts["all"]) ? "off" : (isset($opts["clean"]) ? "on" : "strict");
$refused = ["off" => [], "on" => ["offensive"], "strict" => ["offensive", "vulgar_sense"]][$level];
$column = "group_$lexicon" . ($edit ? "_edit" : "");
// A typed word's one rule, the same in `ladders solve` and the web page (docs/languages.md): ASCII whitespace
// around it dropped here; then (fold_word, once solve.php has read the dump's alphabet) NFC, and every character
// looked up in the table ladders_alphabet, the word being what they are written as; any other character refused.
[$start, $end] = array_map(fn($w) => trim($w, " \t\n\r\x0B\x0C"), $args);

// A character as safe text: U+0131 LATIN SMALL LETTER DOTLESS I (the Unicode name from intl; the code alone
// without it).
function describe_char(string $char): string {
    $point = class_exists("IntlChar") ? IntlChar::ord($char) : utf8_point($char);
    $name = class_exists("IntlChar") ? (IntlChar::charName($char) ?: "unnamed character") : "";
    return sprintf("U+%04X", $point) . ($name === "" ? "" : " $name");
}

function utf8_point(string $char): int {
    $bytes = array_values(unpack("C*", $char));
    $lead = [1 => 0x7F, 2 => 0x1F, 3 => 0x0F, 4 => 0x07][count($bytes)] ?? 0;
    $point = $bytes[0] & $lead;
    foreach (array_slice($bytes, 1) as $b) {
        $point = ($point << 6) | ($b & 0x3F);
    }
    return $point;
}

// $typed in the alphabet's letters, or refused (10) naming the first character outside it. $table: the dump's
// ladders_alphabet (ch => letters); $about: ladders_language (language, name, letters). NFC by PHP's Normalizer
// (the intl extension, php-intl, which `make test-sql` installs); without intl a word is taken as typed, so a
// decomposed accent (e + U+0301) is refused naming the combining mark, where `ladders solve` and the page accept it.
function fold_word(string $typed, array $table, array $about): string {
    $name = $about["name"] ?? "this";
    if ($typed === "") {
        refuse(10, "an empty word is not a word of $name letters", ["word" => "", "suggestions" => []]);
    }
    $text = class_exists("Normalizer") ? Normalizer::normalize($typed, Normalizer::FORM_C) : $typed;
    $chars = $text === false ? false : preg_split('//u', $text, -1, PREG_SPLIT_NO_EMPTY);
    if ($chars === false) {
        refuse(10, "\"$typed\" is not UTF-8 text, so not a word of $name letters", ["word" => $typed, "suggestions" => []]);
    }
    $word = "";
    foreach ($chars as $i => $char) {
        if (!isset($table[$char])) {
            refuse(10, "\"$text\": " . describe_char($char) . " (character " . ($i + 1) . ") is not a letter of the "
                       . "$name alphabet (" . ($about["letters"] ?? "") . ") nor folded into one",
                   ["word" => $text, "char" => $char, "position" => $i + 1, "suggestions" => []]);
        }
        $word .= $table[$char];
    }
    return $word;
}

require __DIR__ . "/solve.php";  // the database and the two searches
