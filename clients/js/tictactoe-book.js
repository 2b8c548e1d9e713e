// tictactoe-book reader: one ES module, no dependencies, for Node >= 18 and browsers.
//
// A board is a string of `cells` characters in reading order (row by row, top row first): 'X'
// (the player who moved first), 'O' (the other), '.' (empty); cell c is character c.
//
// Cells are numbered from 0 (0 to 8 on 3x3) in everything this module takes and returns:
// bestMoves, chooseMove, evaluate's scores, tiers, optimal and outcome(cell), the rules' lines,
// as in the book file and the JSON outputs of `ttt-book`. People are shown 1 to 9 (ttt-play, the
// web page, the README): a program that shows a cell to a person shows c + 1. The image
// of a board under a permutation perm has image[i] = board[perm[i]]; a board's canonical key is
// its smallest image under the symmetries, and the book stores one entry per canonical key.
//
// loadBook proves a book before it answers (docs/book-format.md, "A valid book", steps 1-15):
// strict JSON, the rules' winning lines and symmetries derived here and compared with the
// file's, every entry derived from its successors. A book that passes gives the game-theoretic
// truth whoever wrote it; one that fails is refused with the code of the first failing step,
// the same code as the Python loader and `ttt-book verify`. To answer for a board: swap the
// marks if O moved first, check the board, canonicalize, look up, and map every canonical cell
// c back to the real cell perm[c].

export const FORMAT = 'tictactoe-book';
export const VERSION = 1;
export const LEVELS = Object.freeze(['perfect', 'hard', 'medium', 'easy']);

/** The reasons a book is refused, in the order of the steps that check them. */
export const REASON_CODES = Object.freeze([
  'unreadable', 'limits', 'json', 'format', 'version', 'rules', 'lines', 'symmetries',
  'entries', 'counts', 'entry-key', 'entry-shape', 'missing-entry', 'entry-inconsistent',
]);

const MAX_BYTES = 64 * 1024 * 1024; // step 2: 64 MiB of UTF-8
const MAX_VALUES = 2_000_000; // step 2: '[', '{' and ',' together bound the number of values
const MAX_DEPTH = 32; // step 3: the top-level object is depth 1
const MAX_CELLS = 16; // step 7
const HORIZON = { hard: 4, medium: 2, easy: 1 };

/** A book that cannot be used. `code` is one of REASON_CODES; the message names the source. */
export class BookError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'BookError';
    this.code = code;
  }
}

/** A board that cannot be answered. `code`: length, character, counts, unreachable or over. */
export class BoardError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'BoardError';
    this.code = code;
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const sameList = (a, b) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);
function count(board, mark) {
  let n = 0;
  for (let i = 0; i < board.length; i++) if (board[i] === mark) n++;
  return n;
}
const moverOf = (board) => (count(board, 'X') === count(board, 'O') ? 'X' : 'O');
const swapMarks = (board) => board.replace(/[XO]/g, (m) => (m === 'X' ? 'O' : 'X'));

/** A value as JSON for a message, cut short: the file's own data may be huge. */
function show(value) {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

// ---------------------------------------------------------------- strict JSON (step 3)

const ESCAPES = new Map(Object.entries({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }));
const LITERALS = [['true', true], ['false', false], ['null', null]];
const SPACE = /[ \t\n\r]*/y;
const isHigh = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Parse `text` as strict JSON (docs/book-format.md, "Strict JSON"): the RFC 8259 grammar, and
 * also no duplicate member names, no lone surrogate (raw or escaped), integers only with
 * |n| <= 2^53 - 1, nesting at most 32 deep, no byte-order mark. JSON.parse keeps the last of two
 * duplicates, reads 8.0 as 8 and rounds big integers, so it cannot tell a strict text from a
 * loose one. Objects have no prototype: a member named "__proto__" is an ordinary member, and
 * `name in object` sees only the file's own members. Recursion is bounded by the depth check, so
 * a million '[' fail at depth 33 instead of overflowing the stack. Throws SyntaxError.
 */
export function parseStrictJSON(text) {
  let at = 0;
  const fail = (problem) => {
    throw new SyntaxError(`${problem} ${at < text.length ? `at offset ${at}` : 'at the end of the text'}`);
  };
  const skipSpace = () => {
    // One test per call for the compact book; a sticky regex for long runs of white space: on
    // 64 MiB of padding it takes 0.15 s where a charCodeAt loop takes 0.7-1.7 s (node 20).
    const c = text.charCodeAt(at);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      SPACE.lastIndex = at;
      SPACE.test(text);
      at = SPACE.lastIndex;
    }
  };

  function value(depth) {
    skipSpace();
    const c = text[at];
    if (c === '{') return object(depth + 1);
    if (c === '[') return array(depth + 1);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    for (const [word, v] of LITERALS) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return v;
      }
    }
    return fail(c === undefined ? 'unexpected end of text' : `unexpected ${show(c)}`);
  }

  // The members of an object or the items of an array: `read` one, then "," or the closing bracket.
  function between(close, depth, read) {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH}`);
    at++; // the opening bracket
    skipSpace();
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      read();
      skipSpace();
      const next = text[at];
      if (next !== ',' && next !== close) fail(`expected "," or "${close}"`);
      at++;
      if (next === close) return;
    }
  }

  function object(depth) {
    const members = Object.create(null);
    between('}', depth, () => {
      skipSpace();
      const nameAt = at;
      if (text[at] !== '"') fail('expected a member name');
      const name = string();
      if (name in members) {
        at = nameAt;
        fail(`duplicate member name ${show(name)}`);
      }
      skipSpace();
      if (text[at] !== ':') fail('expected ":"');
      at++;
      members[name] = value(depth);
    });
    return members;
  }

  function array(depth) {
    const items = [];
    between(']', depth, () => items.push(value(depth)));
    return items;
  }

  function string() {
    let out = '';
    let start = ++at; // past the quote; plain runs are copied with one slice
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x22) {
        out += text.slice(start, at++);
        return out;
      }
      if (c === 0x5c) {
        out += text.slice(start, at) + escape();
        start = at;
      } else if (Number.isNaN(c)) {
        fail('unterminated string');
      } else if (c < 0x20) {
        fail('a control character in a string');
      } else if (isHigh(c) && isLow(text.charCodeAt(at + 1))) {
        at += 2; // a raw surrogate pair is one character
      } else if (isHigh(c) || isLow(c)) {
        fail('a lone surrogate');
      } else {
        at++;
      }
    }
  }

  function escape() {
    const letter = text[at + 1];
    if (letter !== 'u') {
      const char = ESCAPES.get(letter);
      if (char === undefined) fail(`bad escape ${show(`\\${letter ?? ''}`)}`);
      at += 2;
      return char;
    }
    const unit = hex4(at + 2);
    if (!isHigh(unit) && !isLow(unit)) {
      at += 6;
      return String.fromCharCode(unit);
    }
    // A surrogate escape is fine only as the first half of an escaped pair: \uD83D\uDE00.
    if (isHigh(unit) && text.startsWith('\\u', at + 6)) {
      const low = hex4(at + 8);
      if (isLow(low)) {
        at += 12;
        return String.fromCharCode(unit, low);
      }
    }
    return fail('a lone surrogate escape');
  }

  function hex4(from) {
    const digits = text.slice(from, from + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail('a bad \\u escape');
    return parseInt(digits, 16);
  }

  function number() {
    const start = at;
    if (text[at] === '-') at++;
    if (text[at] === '0') at++;
    else if (text[at] >= '1' && text[at] <= '9') while (text[at] >= '0' && text[at] <= '9') at++;
    else fail('a number without digits');
    if (text[at] === '.' || text[at] === 'e' || text[at] === 'E') fail('a number with a fraction or exponent (only integers are allowed)');
    // Number() rounds monotonically, so it exceeds 2^53 - 1 exactly when the digits do.
    const digits = text.slice(start, at);
    const n = Number(digits);
    if (Math.abs(n) > Number.MAX_SAFE_INTEGER) {
      at = start;
      fail(`integer ${show(digits)} beyond 2^53 - 1`);
    }
    return n === 0 ? 0 : n; // -0 is 0, as in every other reader
  }

  if (text.charCodeAt(0) === 0xfeff) fail('a byte-order mark');
  const result = value(0);
  skipSpace();
  if (at < text.length) fail('text after the value');
  return result;
}

// ---------------------------------------------------------------- steps 1-3: text to document

/** The UTF-8 length of a string, without encoding it (a lone surrogate would become U+FFFD, 3 bytes). */
function utf8Length(text) {
  if (!/[^\0-\x7f]/.test(text)) return text.length; // ASCII, found by the regex engine's fast scan
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
    } else if (isHigh(c) && isLow(text.charCodeAt(i + 1))) {
      bytes += 2; // a pair: 2 units, 4 bytes
      i++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/** How many '[', '{' and ',' a string or UTF-8 bytes hold (in UTF-8 these bytes are only ever those characters). */
function countValueMarks(units) {
  let marks = 0;
  if (typeof units === 'string') {
    const mark = /[[{,]/g;
    while (mark.test(units)) marks++;
  } else {
    for (const byte of units) if (byte === 0x5b || byte === 0x7b || byte === 0x2c) marks++;
  }
  return marks;
}

function checkLimits(bytes, units, refuse) {
  if (bytes > MAX_BYTES) refuse('limits', `is ${bytes} bytes long; a book is at most ${MAX_BYTES} bytes`);
  const marks = countValueMarks(units);
  if (marks > MAX_VALUES) refuse('limits', `holds ${marks} of the characters [ { , ; a book holds at most ${MAX_VALUES}`);
}

function asBytes(input) {
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  return null;
}

/** Steps 1-3: the document in `input` (the JSON text, or its UTF-8 bytes). */
function readDocument(input, refuse) {
  let text = input;
  if (typeof input === 'string') {
    checkLimits(utf8Length(input), input, refuse);
  } else {
    // A parsed object is refused: the strict JSON rules can only be checked on the text.
    const bytes = asBytes(input);
    if (!bytes) {
      const given = input === null ? 'null' : typeof input === 'object' ? 'a parsed object' : typeof input;
      refuse('unreadable', `cannot be read: loadBook takes the book's JSON text or its bytes, not ${given}`);
    }
    checkLimits(bytes.length, bytes, refuse);
    // TextDecoder would drop a byte-order mark silently; the format refuses one.
    if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) refuse('json', 'is not valid JSON: it starts with a byte-order mark');
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      refuse('json', 'is not valid JSON: its bytes are not UTF-8');
    }
  }
  try {
    return parseStrictJSON(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return refuse('json', `is not valid JSON: ${error.message}`);
  }
}

// ---------------------------------------------------------------- steps 4-9: header, rules, tables

/**
 * Every winning line of a rows x cols board with k in a row (docs/book-format.md, "The derived
 * tables"): directions right, down, down-right, down-left; start cells in reading order.
 */
export function deriveLines(rows, cols, k) {
  const lines = [];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const endRow = r + (k - 1) * dr;
        const endCol = c + (k - 1) * dc;
        if (endRow >= rows || endCol < 0 || endCol >= cols) continue;
        lines.push(Array.from({ length: k }, (_, i) => (r + i * dr) * cols + (c + i * dc)));
      }
    }
  }
  return lines;
}

/**
 * The symmetries of a rows x cols board as permutations (docs/book-format.md, "The derived
 * tables"): transpose (square boards only), then flip the rows, then flip the columns; the
 * identity first, a repeat (on a board one cell wide) skipped.
 */
export function deriveSymmetries(rows, cols) {
  const perms = [];
  for (const transpose of rows === cols ? [false, true] : [false]) {
    for (const flipRows of [false, true]) {
      for (const flipCols of [false, true]) {
        const perm = [];
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) {
            let [sr, sc] = transpose ? [c, r] : [r, c];
            if (flipRows) sr = rows - 1 - sr;
            if (flipCols) sc = cols - 1 - sc;
            perm.push(sr * cols + sc);
          }
        }
        if (!perms.some((p) => sameList(p, perm))) perms.push(perm);
      }
    }
  }
  return perms;
}

/** Steps 4-6. */
function checkHeader(doc, refuse) {
  if (!isObject(doc)) refuse('format', `is not a book: its top level is ${show(doc)}, not an object`);
  if (doc.format !== FORMAT) refuse('format', `is not a ${FORMAT} file (format ${show(doc.format)})`);
  if (doc.version !== VERSION) refuse('version', `has format version ${show(doc.version)}; this reader reads version ${VERSION}`);
  if (doc.canonical !== 'min-image') refuse('format', `uses canonical rule ${show(doc.canonical)}; this reader knows "min-image"`);
}

/** Step 7: the rules, within bounds and those of the caller's game (`wanted`, or null for any). */
function checkRules(rules, wanted, refuse) {
  if (!isObject(rules)) refuse('rules', `has rules ${show(rules)}, not an object`);
  const { rows, cols, k, cells } = rules;
  for (const [name, v] of [['rows', rows], ['cols', cols], ['k', k]]) {
    if (!Number.isInteger(v) || v < 1) refuse('rules', `has rules.${name} ${show(v)}; it must be an integer of at least 1`);
  }
  if (rows * cols > MAX_CELLS) refuse('rules', `has a ${rows}x${cols} board; this reader reads at most ${MAX_CELLS} cells`);
  if (k > rows && k > cols) refuse('rules', `has k = ${k}, longer than both sides of a ${rows}x${cols} board`);
  if (cells !== rows * cols) refuse('rules', `has rules.cells ${show(cells)}, not ${rows * cols}`);
  if (rules.first !== 'X' || rules.second !== 'O' || rules.empty !== '.') {
    refuse('rules', `uses marks ${show([rules.first, rules.second, rules.empty])}, not X, O and .`);
  }
  if (wanted && (rows !== wanted.rows || cols !== wanted.cols || k !== wanted.k)) {
    refuse('rules', `is a book for ${rows}x${cols} k=${k}, not ${wanted.rows}x${wanted.cols} k=${wanted.k}`);
  }
  return { rows, cols, k, cells };
}

/** Steps 8 and 9: the file's tables must be the derived ones; the derived ones are used. */
function checkTables(doc, game, refuse) {
  const { rows, cols, k } = game;
  const lines = deriveLines(rows, cols, k);
  const given = doc.rules.lines;
  const rulesName = `${rows}x${cols} k=${k}`;
  if (!Array.isArray(given) || given.length !== lines.length) {
    refuse('lines', `has rules.lines ${show(given)}; ${rulesName} has ${lines.length} winning lines`);
  }
  lines.forEach((line, i) => {
    if (!sameList(given[i], line)) refuse('lines', `has rules.lines[${i}] ${show(given[i])}; ${rulesName} derives ${show(line)}`);
  });
  const perms = deriveSymmetries(rows, cols);
  const symmetries = doc.symmetries;
  if (!Array.isArray(symmetries) || symmetries.length !== perms.length) {
    const found = Array.isArray(symmetries) ? `${symmetries.length} symmetries` : `symmetries ${show(symmetries)}`;
    refuse('symmetries', `has ${found}; a ${rows}x${cols} board has ${perms.length}`);
  }
  perms.forEach((perm, i) => {
    const item = symmetries[i];
    if (!isObject(item) || typeof item.name !== 'string') refuse('symmetries', `has symmetries[${i}] ${show(item)}, not an object with a string name`);
    if (!sameList(item.perm, perm)) refuse('symmetries', `has symmetries[${i}].perm ${show(item.perm)}; a ${rows}x${cols} board derives ${show(perm)}`);
  });
  return { ...game, lines, perms };
}

// ---------------------------------------------------------------- boards

/** Whether `mark` fills a whole line of `board`. */
const fillsLine = (board, mark, lines) => lines.some((line) => line.every((c) => board[c] === mark));

/** The marks that fill a line of `board` (a Set). */
const owners = (board, lines) => new Set(['X', 'O'].filter((mark) => fillsLine(board, mark, lines)));

/** The smallest image of `board` and the index of the first permutation giving it. */
function canonicalize(board, perms) {
  let key = board;
  let index = 0;
  for (let p = 1; p < perms.length; p++) {
    // Compare the image with the key cell by cell and build it only when it is smaller: the
    // proof canonicalizes every successor, and most images are not: the 3x3 book then loads in
    // half the time, a 3x4 one in 70% (bench.mjs, node 20).
    const perm = perms[p];
    let i = 0;
    while (i < perm.length && board[perm[i]] === key[i]) i++;
    if (i < perm.length && board[perm[i]] < key[i]) {
      key = perm.map((c) => board[c]).join('');
      index = p;
    }
  }
  return { key, index };
}

/** A score's value and plies (docs/book-format.md, "Scores"); `empties` is the free cells before the move. */
function decode(score, empties, cells) {
  if (score > 0) return { value: 1, plies: cells + 1 - score };
  if (score < 0) return { value: -1, plies: cells + 1 + score };
  return { value: 0, plies: empties };
}

// ---------------------------------------------------------------- steps 10-15: the entries

/** Step 12: why `key` is not a playable canonical board, or null. */
function keyProblem(key, game) {
  if (key.length !== game.cells || /[^XO.]/.test(key)) return `is not ${game.cells} characters of X, O and .`;
  const x = count(key, 'X');
  const o = count(key, 'O');
  if (x - o !== 0 && x - o !== 1) return `has ${x} X and ${o} O`;
  if (fillsLine(key, 'X', game.lines) || fillsLine(key, 'O', game.lines)) return 'is finished: a line is full';
  if (!key.includes('.')) return 'is finished: the board is full';
  const { key: canonical } = canonicalize(key, game.perms);
  if (canonical !== key) return `is not canonical: its canonical form is ${canonical}`;
  return null;
}

/** Step 13: why `entry` has the wrong shape, or null. */
function shapeProblem(entry, cells) {
  if (!isObject(entry)) return `is ${show(entry)}, not an object`;
  if (entry.turn !== 'X' && entry.turn !== 'O') return `has turn ${show(entry.turn)}`;
  if (!Number.isInteger(entry.value)) return `has value ${show(entry.value)}, not an integer`;
  if (!Number.isInteger(entry.plies)) return `has plies ${show(entry.plies)}, not an integer`;
  const { scores, tiers } = entry;
  if (!Array.isArray(scores) || scores.length !== cells || !scores.every((s) => s === null || Number.isInteger(s))) {
    return `has scores ${show(scores)}, not ${cells} integers or nulls`;
  }
  if (!Array.isArray(tiers) || !tiers.length || !tiers.every((t) => Array.isArray(t) && t.length && t.every(Number.isInteger))) {
    return `has tiers ${show(tiers)}, not a non-empty list of non-empty lists of integers`;
  }
  return null;
}

/**
 * Each free cell's successor (step 14): finished ones carry their score (the mover wins at once:
 * `cells`; the board is full: 0), the others the canonical key that must be an entry.
 */
function successors(key, game) {
  const mover = moverOf(key);
  const moves = [];
  for (let cell = 0; cell < key.length; cell++) {
    if (key[cell] !== '.') continue;
    const board = key.slice(0, cell) + mover + key.slice(cell + 1);
    if (fillsLine(board, mover, game.lines)) moves.push({ cell, score: game.cells });
    else if (!board.includes('.')) moves.push({ cell, score: 0 });
    else moves.push({ cell, board, key: canonicalize(board, game.perms).key });
  }
  return moves;
}

/** The largest integer score of an entry, or undefined if it has none. */
function bestScore(scores) {
  const numbers = scores.filter((s) => s !== null);
  return numbers.length ? Math.max(...numbers) : undefined;
}

/**
 * A move's score from the best score `b` of the position it leads to, which is the other
 * side's: a draw stays a draw, and a win or loss in p plies becomes a loss or win in p + 1.
 */
function scoreThrough(b) {
  if (b === 0) return 0;
  return b > 0 ? 1 - b : -b - 1;
}

/** Step 15: why the entry at `key` does not follow from its successors, or null. */
function inconsistency(key, entry, moves, best, cells) {
  const mover = moverOf(key);
  if (entry.turn !== mover) return `has turn ${show(entry.turn)}, but ${mover} is to move`;
  const expected = Array(cells).fill(null);
  for (const move of moves) {
    if (move.key === undefined) {
      expected[move.cell] = move.score;
      continue;
    }
    const b = best.get(move.key);
    if (b === undefined) return `leads by cell ${move.cell} to entry ${move.key}, which has no scores`;
    expected[move.cell] = scoreThrough(b);
  }
  for (let c = 0; c < cells; c++) {
    if (entry.scores[c] !== expected[c]) return `has score ${show(entry.scores[c])} for cell ${c}; its successor gives ${show(expected[c])}`;
  }
  const top = Math.max(...moves.map((m) => expected[m.cell]));
  const { value, plies } = decode(top, moves.length, cells);
  if (entry.value !== value || entry.plies !== plies) {
    return `has value ${entry.value} in ${entry.plies} plies; its best score ${top} means ${value} in ${plies}`;
  }
  const optimal = moves.map((m) => m.cell).filter((c) => expected[c] === top);
  const seen = new Set();
  for (const c of entry.tiers.flat()) {
    if (seen.has(c)) return `has cell ${c} twice in its tiers`;
    if (expected[c] !== top) return `has cell ${c} in its tiers, which is not an optimal move (those are ${show(optimal)})`;
    seen.add(c);
  }
  if (seen.size !== optimal.length) return `has tiers ${show(entry.tiers)}, which leave out optimal moves (those are ${show(optimal)})`;
  return null;
}

/**
 * Steps 10-15. Each step runs over every entry before the next starts, so the code does not
 * depend on the order of the members: only the message, which names the entry found first.
 */
function proveEntries(doc, game, refuse) {
  const { entries, counts } = doc;
  if (!isObject(entries)) refuse('entries', `has entries ${show(entries)}, not an object`);
  const keys = Object.keys(entries);
  if (!isObject(counts) || counts.entries !== keys.length) {
    refuse('counts', `has counts.entries ${show(isObject(counts) ? counts.entries : counts)}, but ${keys.length} entries`);
  }
  for (const key of keys) {
    const problem = keyProblem(key, game);
    if (problem) refuse('entry-key', `has entry key ${show(key)}, which ${problem}`);
  }
  for (const key of keys) {
    const problem = shapeProblem(entries[key], game.cells);
    if (problem) refuse('entry-shape', `has entry ${key}, which ${problem}`);
  }
  const empty = '.'.repeat(game.cells);
  if (!(empty in entries)) refuse('missing-entry', `has no entry for the empty board ${empty}`);
  const movesOf = new Map();
  for (const key of keys) {
    const moves = successors(key, game);
    for (const move of moves) {
      if (move.key !== undefined && !(move.key in entries)) {
        refuse('missing-entry', `has entry ${key}, whose move at cell ${move.cell} leads to ${move.board}, but no entry ${move.key}`);
      }
    }
    movesOf.set(key, moves);
  }
  const best = new Map(keys.map((key) => [key, bestScore(entries[key].scores)]));
  for (const key of keys) {
    const problem = inconsistency(key, entries[key], movesOf.get(key), best, game.cells);
    if (problem) refuse('entry-inconsistent', `has entry ${key}, which ${problem}`);
  }
}

// ---------------------------------------------------------------- loading

/**
 * Prove a book and return a reader for it, or throw BookError with the first failing step's
 * code (REASON_CODES). `input` is the file's JSON text, or its bytes (Uint8Array, ArrayBuffer):
 * bytes are checked as the file is (no byte-order mark, valid UTF-8); a string is taken as
 * already decoded. Options: `rules` {rows, cols, k} the caller plays (default 3x3, k = 3), or
 * null for any; `source` names the book in messages.
 */
export function loadBook(input, { rules = { rows: 3, cols: 3, k: 3 }, source = 'book' } = {}) {
  const refuse = (code, reason) => {
    throw new BookError(code, `${source}: ${reason} [${code}]`);
  };
  const doc = readDocument(input, refuse);
  checkHeader(doc, refuse);
  const game = checkTables(doc, checkRules(doc.rules, rules, refuse), refuse);
  proveEntries(doc, game, refuse);
  return new Reader(game, doc.entries);
}

const WORDS = { 1: 'win', 0: 'draw', '-1': 'loss' };

class Reader {
  #entries; // proven: private, so no caller can change what the proof covered

  constructor(game, entries) {
    const { rows, cols, k, cells, lines, perms } = game;
    // Frozen: the answers rest on these tables being the derived ones.
    const frozen = (tables) => Object.freeze(tables.map((t) => Object.freeze(t)));
    this.rules = Object.freeze({ rows, cols, k, cells, first: 'X', second: 'O', empty: '.', lines: frozen(lines) });
    this.cells = cells;
    this.perms = frozen(perms);
    this.#entries = entries;
  }

  /** The marks that own a line on `board` (a Set). */
  winners(board) {
    return owners(board, this.rules.lines);
  }

  /** The smallest image of `board` and the index of the first symmetry giving it. */
  canonical(board) {
    return canonicalize(board, this.perms);
  }

  /** Throws BoardError unless `board` (as the game holds it) is playable. */
  check(board, first) {
    if (typeof board !== 'string') throw new BoardError('character', 'a board must be a string');
    if (board.length !== this.cells) {
      throw new BoardError('length', `board "${board}" has ${board.length} cells; the book needs ${this.cells}`);
    }
    const bad = board.match(/[^XO.]/);
    if (bad) throw new BoardError('character', `board "${board}" has ${JSON.stringify(bad[0])}; use X, O and . only`);
    const second = first === 'X' ? 'O' : 'X';
    const a = count(board, first);
    const b = count(board, second);
    if (a - b < 0 || a - b > 1) {
      throw new BoardError('counts', `board "${board}" has ${a} ${first} and ${b} ${second}; ${first} moved first`);
    }
    const won = this.winners(board);
    if (won.size > 1) throw new BoardError('unreachable', `board "${board}" is unreachable: both X and O have a line`);
    if (won.size === 1) {
      const mark = [...won][0];
      const lastMover = a > b ? first : second;
      if (mark !== lastMover) throw new BoardError('unreachable', `board "${board}" is unreachable: ${mark} did not move last`);
      throw new BoardError('over', `board "${board}" is finished: ${mark} has won`);
    }
    if (!board.includes('.')) throw new BoardError('over', `board "${board}" is finished: a draw`);
  }

  /**
   * The book's answer for `board` in its own orientation: turn (the game's mark), value
   * (1 win / 0 draw / -1 loss for the side to move), plies, every legal move's score (an array
   * indexed by cell, 0 to cells - 1, with null for occupied cells), the optimal moves and the
   * trap-order tiers (cells 0 to cells - 1), and outcome(cell): {value, plies} of that move.
   */
  evaluate(board, { first = 'X' } = {}) {
    if (first !== 'X' && first !== 'O') throw new TypeError(`first must be "X" or "O", got ${JSON.stringify(first)}`);
    this.check(board, first);
    const asBook = first === 'X' ? board : swapMarks(board);
    const { key, index } = this.canonical(asBook);
    const entry = this.#entries[key];
    // The proof (steps 12 and 14) makes the keys exactly the playable boards up to symmetry.
    if (!entry) throw new Error(`internal error: proven book has no entry ${key}`);
    const perm = this.perms[index];
    const scores = Array(this.cells).fill(null);
    entry.scores.forEach((s, c) => {
      if (s !== null) scores[perm[c]] = s;
    });
    const tiers = entry.tiers.map((tier) => tier.map((c) => perm[c]).sort((a, b) => a - b));
    const turn = first === 'X' ? entry.turn : entry.turn === 'X' ? 'O' : 'X';
    return {
      board,
      first,
      turn,
      value: entry.value,
      valueWord: WORDS[entry.value],
      plies: entry.plies,
      key,
      symmetry: index,
      scores,
      tiers,
      optimal: tiers.flat().sort((a, b) => a - b),
      outcome: (cell) => decode(scores[cell], count(board, '.'), this.cells),
    };
  }

  /** Every optimal move for the side to move, in the board's own orientation: cells 0 to cells - 1, ascending. */
  bestMoves(board, options) {
    return this.evaluate(board, options).optimal;
  }

  /** The cells `level` chooses among, uniformly (the same rules as player/levels.py). */
  candidates(evaluation, level) {
    if (level === 'perfect') return evaluation.tiers[0];
    const horizon = HORIZON[level];
    if (!horizon) throw new RangeError(`unknown level ${JSON.stringify(level)}; choose one of ${LEVELS.join(', ')}`);
    const moves = evaluation.scores.flatMap((s, c) => (s === null ? [] : [{ c, s, ...evaluation.outcome(c) }]));
    const wins = moves.filter((m) => m.value > 0 && m.plies <= horizon);
    if (wins.length) {
      const fastest = Math.min(...wins.map((m) => m.plies));
      return wins.filter((m) => m.plies === fastest).map((m) => m.c);
    }
    const safe = moves.filter((m) => !(m.value < 0 && m.plies <= horizon));
    if (safe.length) return safe.map((m) => m.c);
    const slowest = Math.max(...moves.map((m) => m.s));
    return moves.filter((m) => m.s === slowest).map((m) => m.c);
  }

  /** The computer's move at `level` (a cell, 0 to cells - 1); `random()` returns [0, 1) like Math.random. */
  chooseMove(board, { level = 'perfect', random = Math.random, first = 'X' } = {}) {
    const options = this.candidates(this.evaluate(board, { first }), level);
    if (options.length === 1) return options[0];
    return options[Math.min(options.length - 1, Math.floor(random() * options.length))];
  }
}
