// tictactoe-book reader: one ES module, no dependencies, for Node >= 18 and browsers. It reads
// book format version 2 (docs/book-format.md; loadBook), and a book by parts, format version 3
// (docs/book-parts.md; loadPartsBook, at the end); a version-1 book is refused with `version`.
//
// A board is a string of `cells` characters in reading order (row by row, top row first): 'X'
// (the player who moved first), 'O' (the other), '.' (empty); cell c is character c.
//
// Cells are numbered from 0 (0 to cells - 1: 0 to 8 on 3x3) in everything this module takes and
// returns: bestMoves, chooseMove, evaluate's scores, tiers, optimal and outcome(cell), the rules'
// lines, as in the book file and the JSON outputs of `ttt-book`. People are shown 1 to cells
// (ttt-play, the web page, the README): a program that shows a cell to a person shows c + 1, as
// Position's grid() does, and reads the cell a person types with parseMove().
// The image of a board under a permutation perm has image[i] = board[perm[i]]; a board's
// canonical key is its smallest image under the symmetries ('.' < 'O' < 'X'), and the book
// stores one entry per canonical key.
//
// An entry is a string: the best score for the side to move, then the optimal moves in trap
// order as tiers, e.g. "0 0,2,6,8 1,3,5,7 4". Every move's score is derived, never stored: a
// move completing a line scores `cells` (misère: -cells), one filling the board 0, any other
// one ply back from the best score of the entry it leads to.
//
// loadBook proves a book before it answers (docs/book-format.md, "A valid book", steps 1-15):
// strict JSON, the rules' winning lines and symmetries derived here and compared with the
// file's, every entry derived from its successors. A book that passes gives the game-theoretic
// truth whoever wrote it; one that fails is refused with the code of the first failing step,
// the same code as the Python loader and `ttt-book verify`. To answer for a board: swap the
// marks if O moved first, check the board, canonicalize, look up, and map every canonical cell
// c back to the real cell perm[c].
//
// Positions are handled as integers inside: a board's code is its string read as a base-3
// number, cell 0 the most significant digit, with '.' = 0, 'O' = 1, 'X' = 2. Codes compare as
// the strings do, so the canonical key is the image with the smallest code, and the code of an
// image is a sum of per-cell weights: a successor's images are its parent's plus one weight
// each (see GameTables). The proof of a 4x4 book (about a million entries) then costs a few
// additions and one hash probe per move instead of a string per image (bench.mjs).

export const FORMAT = 'tictactoe-book';
export const VERSION = 2;
/** The format version of a book by parts (docs/book-parts.md): a manifest and part files, read by loadPartsBook. */
export const PARTS_VERSION = 3;
export const LEVELS = Object.freeze(['perfect', 'hard', 'medium', 'easy']);

/** The reasons a book is refused, in the order of the steps that check them. */
export const REASON_CODES = Object.freeze([
  'unreadable', 'limits', 'json', 'format', 'version', 'rules', 'lines', 'symmetries',
  'entries', 'counts', 'entry-key', 'entry-shape', 'missing-entry', 'entry-inconsistent',
]);

/**
 * The reasons a book by parts is refused beyond REASON_CODES (docs/book-parts.md, "A valid book by
 * parts"): its list of parts, and a part's file missing, not the bytes the manifest names, or
 * not laid out as a part (Python's tictactoe_book.errors.PARTS_REASONS).
 */
export const PARTS_REASON_CODES = Object.freeze(['parts', 'part-missing', 'part-hash', 'part-format']);

const MAX_BYTES = 67_108_864; // step 2: 64 MiB of UTF-8

/** The most bytes a book may have (docs/book-format.md, step 2: 64 MiB); readBookResponse reads no further. */
export const MAX_BOOK_BYTES = MAX_BYTES;
const MAX_VALUES = 4_000_000; // step 2: '[', '{' and ',' together bound the number of values (a 4x4 book: about one ',' per entry)
const MAX_DEPTH = 32; // step 3: the top-level object is depth 1
/** The most cells of a game's board (as tictactoe_book.game.MAX_CELLS): a Position's, and a book by parts' (its step 7). */
const MAX_CELLS = 20;
/** The most cells of a whole-file book, version 2 (step 7; tictactoe_book.book_format.MAX_BOOK_CELLS). */
const MAX_BOOK_CELLS = 16;
// A Map, not an object: a level is the caller's name, and an object would also answer for names
// it inherits ('constructor', 'toString', '__proto__'), each a truthy non-number.
const HORIZON = new Map([['hard', 4], ['medium', 2], ['easy', 1]]);

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

/** Characters of a value a message repeats (as Python's tictactoe_book.errors.MAX_ECHOED). */
const MAX_ECHOED = 100;
/**
 * Characters of a book's name (the `source` option) a message repeats, as Python's
 * MAX_ECHOED_PATH: whole up to the longest path Linux opens, since a real name is worth reading
 * in full; a longer one names no file.
 */
const MAX_ECHOED_SOURCE = 4096;
const counted = (n) => `${n.toLocaleString('en-US')} characters`;

/** `text` written by `form` when it is at most `limit` code points, else its first `limit` and its length. */
function cut(text, limit, form) {
  const chars = text.length > limit ? [...text] : null;
  if (!chars || chars.length <= limit) return form(text);
  return `${form(chars.slice(0, limit).join(''))}... (${counted(chars.length)})`;
}

/**
 * A value as JSON for a message (tictactoe_book.errors.echoed's mirror): whole up to MAX_ECHOED
 * characters, else cut there and its length given; a string is cut before it is written, in
 * code points. The file's own data, or a caller's value, may be huge.
 */
function show(value) {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return cut(value, MAX_ECHOED, JSON.stringify);
  // as the caller wrote it: JSON says null for NaN and the infinities, and 0 for -0
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'bigint') return cut(`${value}n`, MAX_ECHOED, (t) => t);
  let text;
  try {
    text = JSON.stringify(value) ?? String(value); // a function or symbol: its own text
  } catch {
    text = String(value); // a BigInt, or a cycle
  }
  return text.length <= MAX_ECHOED ? text : `${text.slice(0, MAX_ECHOED)}... (${counted(text.length)})`;
}

/**
 * The `source` option as a message names the book (as Python's BookError writes its path): its
 * text, whole up to MAX_ECHOED_SOURCE characters, else cut there and its length given.
 */
function sourceName(source) {
  let text;
  try {
    text = String(source);
  } catch {
    text = show(source); // an object without a toString
  }
  return cut(text, MAX_ECHOED_SOURCE, (t) => t);
}

// ---------------------------------------------------------------- strict JSON (step 3)

const ESCAPES = new Map(Object.entries({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }));
const LITERALS = [['true', true], ['false', false], ['null', null]];
const SPACE = /[ \t\n\r]*/y;
const isHigh = (unit) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The names and values of each object parseStrictJSON made, in the order of the text: the proof
 * reads a 4x4 book's million entries from these arrays. Object.keys and a look-up per key on an
 * object of that size cost about half as much as the strict parse itself (node 20, 35 MB book).
 */
const MEMBERS = new WeakMap();

/** An object's member names and values: as parsed, or (JSON.parse's objects) as Object.keys gives them. */
function membersOf(object) {
  const known = MEMBERS.get(object);
  if (known) return known;
  const names = Object.keys(object);
  return { names, values: names.map((name) => object[name]) };
}

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
    const names = [];
    const values = [];
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
      const member = value(depth);
      members[name] = member;
      names.push(name);
      values.push(member);
    });
    MEMBERS.set(members, { names, values });
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
  // Indexed loops: `for (const byte of bytes)` and a global regex take 3-10 times as long on a
  // 40 MB book (node 20).
  let marks = 0;
  if (typeof units === 'string') {
    for (let i = 0; i < units.length; i++) {
      const c = units.charCodeAt(i);
      if (c === 0x2c || c === 0x5b || c === 0x7b) marks++;
    }
  } else {
    for (let i = 0; i < units.length; i++) {
      const c = units[i];
      if (c === 0x2c || c === 0x5b || c === 0x7b) marks++;
    }
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

/**
 * A parsed book (what JSON.parse or `import ... with { type: 'json' }` gives) as JSON text, to be
 * read as a file is: its parser has already lost what strict JSON refuses in a text (duplicate
 * names, 8.0, a rounded integer), and the rest of the proof is the same. Nesting is checked on
 * the way, so a cycle or a value 1,000,000 deep is refused like the text would be ('json').
 */
function parsedAsText(value, refuse) {
  const within = (v, depth) => {
    if (v === null || typeof v !== 'object') return;
    if (depth > MAX_DEPTH) refuse('json', `is not valid JSON: nesting deeper than ${MAX_DEPTH}`);
    for (const item of Array.isArray(v) ? v : Object.values(v)) within(item, depth + 1);
  };
  within(value, 1);
  try {
    return JSON.stringify(value);
  } catch (error) {
    // a BigInt or a toJSON that throws; a RangeError: a string too long for the engine
    return refuse(error instanceof RangeError ? 'limits' : 'json', `cannot be written as JSON: ${error.message}`);
  }
}

/**
 * Steps 1-3: the document in `input`: the JSON text, its UTF-8 bytes, or an object already
 * parsed from it (parsedAsText).
 */
function readDocument(input, refuse) {
  let text = input;
  if (input !== null && typeof input === 'object' && !asBytes(input)) text = parsedAsText(input, refuse);
  if (typeof text === 'string') {
    checkLimits(utf8Length(text), text, refuse);
  } else {
    const bytes = asBytes(input);
    if (!bytes) {
      const given = input === null ? 'null' : typeof input;
      refuse('unreadable', `cannot be read: loadBook takes the book's JSON text, its bytes or the object parsed from them, not ${given}`);
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

/** Steps 4-6, for a book of format `version` (2; a book by parts' manifest: PARTS_VERSION). */
function checkHeader(doc, refuse, version = VERSION) {
  if (!isObject(doc)) refuse('format', `is not a book: its top level is ${show(doc)}, not an object`);
  if (doc.format !== FORMAT) refuse('format', `is not a ${FORMAT} file (format ${show(doc.format)})`);
  if (doc.version !== version) {
    let hint = '';
    if (version === VERSION && doc.version === 1) hint = ' only (rebuild the book with `ttt-book build`)';
    else if (doc.version === PARTS_VERSION) hint = ' (a book by parts: openPartsBook reads it)';
    else if (doc.version === VERSION) hint = ' (a whole book: loadBook reads it)';
    refuse('version', `has format version ${show(doc.version)}; this reader reads version ${version}${hint}`);
  }
  if (doc.canonical !== 'min-image') refuse('format', `uses canonical rule ${show(doc.canonical)}; this reader knows "min-image"`);
}

/**
 * Step 7: the rules, within bounds and those of the caller's game (`wanted`: {rows, cols, k,
 * misere}, misere false when left out; or null for any). `maxCells` is the format's bound: a
 * whole book's MAX_BOOK_CELLS, a book by parts' MAX_CELLS (a game's own).
 */
function checkRules(rules, wanted, refuse, maxCells) {
  if (!isObject(rules)) refuse('rules', `has rules ${show(rules)}, not an object`);
  const { rows, cols, k, cells, misere } = rules; // misere is no default here: a book states it
  const problem = rulesProblem({ rows, cols, k, misere });
  if (problem) refuse('rules', `has impossible rules: ${problem.member ? 'rules.' : ''}${problem.text}`);
  if (rows * cols > maxCells) refuse('rules', `has impossible rules: board ${rows}x${cols} has ${rows * cols} cells; at most ${maxCells}`);
  if (cells !== rows * cols) refuse('rules', `has rules.cells ${show(cells)}, not ${rows * cols}`);
  if (rules.first !== 'X' || rules.second !== 'O' || rules.empty !== '.') {
    refuse('rules', `uses marks ${show([rules.first, rules.second, rules.empty])}, not X, O and .`);
  }
  const name = (r) => `${r.rows}x${r.cols} k=${r.k}${r.misere ? ' misère' : ''}`;
  if (wanted && (rows !== wanted.rows || cols !== wanted.cols || k !== wanted.k || misere !== wanted.misere)) {
    refuse('rules', `is a book for ${name(rules)}, not ${name(wanted)}`);
  }
  return { rows, cols, k, cells, misere };
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

// ---------------------------------------------------------------- boards as codes

const DOT = 0x2e;
const O_MARK = 0x4f;
const X_MARK = 0x58;
const MARK_UNITS = [DOT, O_MARK, X_MARK]; // a code's digit's character
const OCCUPIED = -128; // a derived score's slot for an occupied cell (scores lie in [-cells, cells], cells <= 20)
const DERIVED = 0; // what Entries.derive returns
const MISSING = 1;
const OUT_OF_RANGE = 2;

/** The number of set bits of a mask of cells (bit c for cell c). */
function popcount(mask) {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/** The index of the lowest set bit of a non-zero mask. */
const lowestCell = (mask) => 31 - Math.clz32(mask & -mask);

/**
 * Up to this many cells a board's code (below 3^16 < 2^26) fits an Int32Array and a CodeTable's
 * slot, and its masks a Uint16Array: the fast path, every whole book's (MAX_BOOK_CELLS) and the
 * proof's. Past it (a book by parts, a Position, up to MAX_CELLS) codes reach 3^20 - 1 > 2^31
 * and are held in Float64Arrays (integers are exact below 2^53), masks in Uint32Arrays, and
 * codes are looked up in a CodeMap.
 */
const SMALL_CELLS = 16;

/**
 * The tables everything below runs on, derived from the rules (never from the file): the lines
 * as bit masks of cells (and per cell the lines through it), and each symmetry as weights. With
 * image[i] = board[perm[i]], board cell j is digit i = inverse[j] of the image, worth
 * 3^(cells - 1 - i): `weights[p * cells + j]`. An image's code is then the sum of its marks'
 * weights (an X counts twice), and a successor's image codes are its parent's plus the weight
 * of the new mark's cell: 8 additions, no string. `Codes` and `Masks` are the typed arrays that
 * hold this game's codes and masks (SMALL_CELLS).
 */
class GameTables {
  constructor({ rows, cols, k, cells, misere, lines, perms }) {
    Object.assign(this, { rows, cols, k, cells, misere, lines, perms });
    const small = cells <= SMALL_CELLS;
    this.Codes = small ? Int32Array : Float64Array;
    this.Masks = small ? Uint16Array : Uint32Array;
    this.full = (1 << cells) - 1;
    this.lineMasks = Int32Array.from(lines, (line) => line.reduce((mask, c) => mask | (1 << c), 0));
    this.linesThrough = Array.from({ length: cells }, (_, c) => Int32Array.from([...this.lineMasks].filter((m) => m & (1 << c))));
    this.weights = new this.Codes(perms.length * cells);
    perms.forEach((perm, p) => perm.forEach((j, i) => { this.weights[p * cells + j] = 3 ** (cells - 1 - i); }));
    // The weight of a set of cells, a byte of the mask at a time: byteWeights[(p * bytes + half) * 256 + byte]
    // is the sum of the weights of the cells 8 * half + b for the bits b of byte, under symmetry p.
    // Each byte's sum is a smaller byte's plus the weight of its lowest cell. Two bytes a mask up
    // to 16 cells, three past them.
    this.bytes = small ? 2 : 3;
    this.byteWeights = new this.Codes(perms.length * this.bytes * 256);
    for (let p = 0; p < perms.length; p++) {
      for (let half = 0; half < this.bytes; half++) {
        const table = (p * this.bytes + half) * 256;
        for (let byte = 1; byte < 256; byte++) {
          const cell = 8 * half + lowestCell(byte);
          const weight = cell < cells ? this.weights[p * cells + cell] : 0;
          this.byteWeights[table + byte] = this.byteWeights[table + (byte & (byte - 1))] + weight;
        }
      }
    }
    this.images = new this.Codes(perms.length); // scratch: the image codes of the board at hand
  }

  /** Whether the mark with cells `mask` fills a line. */
  fillsLine(mask) {
    const lines = this.lineMasks;
    for (let l = 0; l < lines.length; l++) if ((mask & lines[l]) === lines[l]) return true;
    return false;
  }

  /** Fill `this.images` with the codes of the images of the board with X on `x` and O on `o`. */
  imageCodes(x, o) {
    const { byteWeights: w, images } = this;
    const x0 = x & 0xff;
    const x1 = ((x >> 8) & 0xff) | 0x100; // the second byte's table follows the first's
    const o0 = o & 0xff;
    const o1 = ((o >> 8) & 0xff) | 0x100;
    if (this.bytes === 2) {
      for (let p = 0, t = 0; p < images.length; p++, t += 512) {
        images[p] = 2 * (w[t + x0] + w[t + x1]) + w[t + o0] + w[t + o1];
      }
      return;
    }
    const x2 = (x >> 16) | 0x200; // and the third's the second's
    const o2 = (o >> 16) | 0x200;
    for (let p = 0, t = 0; p < images.length; p++, t += 768) {
      images[p] = 2 * (w[t + x0] + w[t + x1] + w[t + x2]) + w[t + o0] + w[t + o1] + w[t + o2];
    }
  }

  /** The board string of a code: its base-3 digits, the last cell's first. */
  board(code) {
    const units = new Array(this.cells);
    for (let i = this.cells - 1, rest = code; i >= 0; i--) {
      const digit = rest % 3;
      rest = (rest - digit) / 3;
      units[i] = MARK_UNITS[digit];
    }
    return String.fromCharCode(...units);
  }
}

/**
 * A board string's marks as masks, or null if it holds anything but X, O and '.' (the length
 * is the caller's to check). Reuses one object: the proof reads a million keys.
 */
const marksOf = (() => {
  const found = { x: 0, o: 0 };
  return (board) => {
    let x = 0;
    let o = 0;
    for (let i = 0; i < board.length; i++) {
      const unit = board.charCodeAt(i);
      if (unit === X_MARK) x |= 1 << i;
      else if (unit === O_MARK) o |= 1 << i;
      else if (unit !== DOT) return null;
    }
    found.x = x;
    found.o = o;
    return found;
  };
})();

/** The smallest image of `board` (a string of X, O and '.') and the index of the first permutation giving it. */
function canonicalize(board, tables) {
  const { x, o } = marksOf(board);
  tables.imageCodes(x, o);
  let index = 0;
  for (let p = 1; p < tables.images.length; p++) if (tables.images[p] < tables.images[index]) index = p;
  return { key: tables.board(tables.images[index]), index, code: tables.images[index] };
}

/**
 * Codes to entries, for boards up to SMALL_CELLS (past them, CodeMap): open addressing over one
 * Int32Array, each slot a code (3^16 < 2^26: 26 bits) with its entry's best score in the 6 bits
 * above (score + 16, or 63 for a best score no move can have), so that the proof's probe for a
 * successor reads 4 bytes: half its time on a 4x4 book is these probes, and an 8 MB table holds
 * in cache where a 16 MB one of (code, score) pairs did not. The entry number of each slot is
 * kept beside, for the answers. A Map of a million keys costs several times the memory and the
 * time.
 */
const CODE_BITS = 26;
const CODE_MASK = (1 << CODE_BITS) - 1;
const NO_SCORE = 63; // in a slot: a best score beyond [-cells, cells] (the exact one is in Entries.best)

class CodeTable {
  constructor(size) {
    let bits = 4;
    while (1 << bits < 1.25 * size) bits++; // at most 80% full
    this.shift = 32 - bits;
    this.mask = (1 << bits) - 1;
    this.slots = new Int32Array(1 << bits).fill(-1); // -1: no code is 2^26 - 1
    this.entries = new Int32Array(1 << bits);
  }

  /** Store entry number `entry` under `code` (a new code); returns its slot. */
  add(code, entry) {
    const { slots, mask } = this;
    let at = Math.imul(code, 0x9e3779b1) >>> this.shift; // Fibonacci hashing (Knuth, TAOCP 6.4)
    while (slots[at] !== -1) at = (at + 1) & mask;
    slots[at] = code | (NO_SCORE << CODE_BITS);
    this.entries[at] = entry;
    return at;
  }

  /** Record the best score `best` (NO_SCORE beyond [-16, 16]) of the entry in slot `at`. */
  setBest(at, best) {
    this.slots[at] = (this.slots[at] & CODE_MASK) | ((best === NO_SCORE ? NO_SCORE : best + 16) << CODE_BITS);
  }

  /** The best score recorded in slot `at`, or NO_SCORE. */
  bestAt(at) {
    const field = this.slots[at] >>> CODE_BITS;
    return field === NO_SCORE ? NO_SCORE : field - 16;
  }

  /** The slot holding `code`, or -1. */
  find(code) {
    const { slots, mask } = this;
    let at = Math.imul(code, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const found = slots[at];
      if (found === -1) return -1;
      if ((found & CODE_MASK) === code) return at;
      at = (at + 1) & mask;
    }
  }

  /** The entry number stored under `code`, or -1. */
  get(code) {
    const at = this.find(code);
    return at < 0 ? -1 : this.entries[at];
  }
}

/**
 * CodeTable's interface over a Map, for boards past SMALL_CELLS, whose codes (up to 3^20 - 1)
 * do not fit a slot's 26 bits: slot n is the n-th code added. Only a book by parts has such
 * boards, and its reader indexes an entry and its successors per answer (at most cells + 1
 * codes); the proof of a whole book (at most MAX_BOOK_CELLS) never builds one.
 */
class CodeMap {
  constructor(size) {
    this.slotOf = new Map();
    this.entries = new Int32Array(size);
    this.bests = new Int8Array(size).fill(NO_SCORE); // scores lie in [-20, 20]; NO_SCORE is 63
  }

  /** Store entry number `entry` under `code` (a new code); returns its slot. */
  add(code, entry) {
    const at = this.slotOf.size;
    this.slotOf.set(code, at);
    this.entries[at] = entry;
    return at;
  }

  /** Record the best score `best` (NO_SCORE beyond [-cells, cells]) of the entry in slot `at`. */
  setBest(at, best) {
    this.bests[at] = best;
  }

  /** The best score recorded in slot `at`, or NO_SCORE. */
  bestAt(at) {
    return this.bests[at];
  }

  /** The slot holding `code`, or -1. */
  find(code) {
    return this.slotOf.get(code) ?? -1;
  }

  /** The entry number stored under `code`, or -1. */
  get(code) {
    const at = this.find(code);
    return at < 0 ? -1 : this.entries[at];
  }
}

/** A score's value and plies (docs/book-format.md, "Scores"); `empties` is the free cells before the move. */
function decode(score, empties, cells) {
  if (score > 0) return { value: 1, plies: cells + 1 - score };
  if (score < 0) return { value: -1, plies: cells + 1 + score };
  return { value: 0, plies: empties };
}

/**
 * A move's score from the best score `b` of the position it leads to, which is the other
 * side's: a draw stays a draw, and a win or loss in p plies becomes a loss or win in p + 1.
 */
function scoreThrough(b) {
  if (b === 0) return 0;
  return b > 0 ? 1 - b : -b - 1;
}

// ---------------------------------------------------------------- the game: boards and positions

/** Rules that describe no board this reader plays (tictactoe_book.errors.RulesError). */
export class RulesError extends Error {
  constructor(message) {
    super(message);
    this.name = 'RulesError';
  }
}

/** A move off the board, onto a taken cell, or after the game is over (tictactoe_book.errors.IllegalMoveError). */
export class IllegalMoveError extends Error {
  constructor(message) {
    super(message);
    this.name = 'IllegalMoveError';
  }
}

const rulesName = (r) => `${r.rows}x${r.cols} k=${r.k}${r.misere ? ' misère' : ''}`;

/**
 * The game `rules` describe ({rows, cols, k, misere}, misere false when left out; other members
 * are ignored, so a reader's `rules` will do), checked as tictactoe_book.game.Rules checks it and frozen;
 * RulesError otherwise.
 */
function gameRules(rules) {
  if (rules === null || typeof rules !== 'object') throw new RulesError(`rules must be an object {rows, cols, k, misere}, got ${show(rules)}`);
  const { rows, cols, k, misere = false } = rules;
  const problem = rulesProblem({ rows, cols, k, misere });
  if (problem) throw new RulesError(problem.text);
  return Object.freeze({ rows, cols, k, misere });
}

/**
 * Why {rows, cols, k, misere} are the rules of no game this reader plays, or null: the one
 * check of rules in JavaScript, tictactoe_book.game.Rules's in its order and words, shared by
 * Position (gameRules), the caller's rules of loadBook (wantedRules) and a book's own (step 7,
 * checkRules). Returns {member, text}: the member at fault ('rows', 'cols', 'k', 'misere'), or
 * null when the members are each fine and the board is not (over MAX_CELLS cells, or k longer
 * than both sides: k equal to the longer side, as 4 on 3x4, is a game).
 */
function rulesProblem({ rows, cols, k, misere }) {
  for (const [member, v] of [['rows', rows], ['cols', cols], ['k', k]]) {
    if (!Number.isInteger(v) || v < 1) return { member, text: `${member} must be a positive integer, got ${show(v)}` };
  }
  if (misere !== true && misere !== false) return { member: 'misere', text: `misere must be true or false, got ${show(misere)}` };
  if (rows * cols > MAX_CELLS) return { member: null, text: `board ${rows}x${cols} has ${rows * cols} cells; at most ${MAX_CELLS}` };
  if (k > Math.max(rows, cols)) return { member: null, text: `k=${k} does not fit on a ${rows}x${cols} board` };
  return null;
}

/**
 * What Python's str.strip() takes off (str.isspace): JavaScript's trim() also takes U+FEFF and
 * leaves U+001C to U+001F and U+0085, so the rules' spelling is stripped by this instead.
 */
const PY_SPACE = String.raw`\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000`;
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
const DIGITS = /^[0-9]+$/;

/**
 * The rules a person spells (tictactoe_book.game.Rules.parse's mirror, as the command lines take
 * them): "RxC", "RxC:K" ("3x4:3"), and either followed by ":misere" ("3x3:3:misere",
 * "3x3:misere"; "misère" too), any case, spaces around; k is min(R, C) when left out, and every
 * number is ASCII digits (no sign, no space inside). Returns the frozen {rows, cols, k, misere}
 * Position takes; RulesError for another spelling or rules of no game (rulesProblem), TypeError
 * for what is no string.
 */
export function parseRules(text) {
  if (typeof text !== 'string') throw new TypeError(`rules text must be a string such as "3x4:3", got ${kindOf(text)}`);
  const parts = text.replace(PY_STRIP, '').toLowerCase().split(':');
  const misere = parts.length > 1 && (parts.at(-1) === 'misere' || parts.at(-1) === 'misère');
  if (misere) parts.pop();
  const x = parts[0].indexOf('x');
  const [rows, cols, k] = [parts[0].slice(0, x), parts[0].slice(x + 1), parts[1] ?? null];
  if (x < 0 || parts.length > 2 || ![rows, cols, k ?? '0'].every((t) => DIGITS.test(t))) {
    throw new RulesError(`rules must look like 3x3, 3x4:3 or 3x3:3:misere, got ${show(text)}`);
  }
  const [r, c] = [Number(rows), Number(cols)];
  return gameRules({ rows: r, cols: c, k: k === null ? Math.min(r, c) : Number(k), misere });
}

/** A Position's `rules`: an object checked by gameRules, or a spelling read by parseRules. */
const rulesOf = (rules) => (typeof rules === 'string' ? parseRules(rules) : gameRules(rules));

/** What a value is, as a TypeError's message names it (Python's type(value).__name__). */
function kindOf(value) {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const name = typeof value === 'object' ? value.constructor?.name : undefined;
  if (typeof value === 'object') return name && name !== 'Object' ? `a ${name}` : 'an object';
  return `a ${typeof value}`;
}

/** The derived tables of a game's rules, once per rules (a position played on shares its parent's). */
const TABLES = new Map();
function tablesOf({ rows, cols, k, misere }) {
  const name = rulesName({ rows, cols, k, misere });
  let tables = TABLES.get(name);
  if (!tables) {
    const lines = deriveLines(rows, cols, k);
    tables = new GameTables({ rows, cols, k, cells: rows * cols, misere, lines, perms: deriveSymmetries(rows, cols) });
    TABLES.set(name, tables);
  }
  return tables;
}

/** The marks owning a complete line, X first, of the board with X on `x` and O on `o` (bits by cell). */
function lineOwnersOf(x, o, tables) {
  const owners = [];
  if (tables.fillsLine(x)) owners.push('X');
  if (tables.fillsLine(o)) owners.push('O');
  return owners;
}

/**
 * Throws BoardError unless `board` is a board of the game in `tables` that `first` began
 * (docs/porting.md, section 2, in order: length, character, counts, unreachable, over). With
 * `finished`, a board whose game is over passes the last check: it is a position, not a question
 * for the book. `whose` names what sets the length in a message.
 */
function checkBoard(board, tables, first, { finished = false, whose = 'the book' } = {}) {
  if (typeof board !== 'string') throw new BoardError('character', 'a board must be a string');
  // cells are code points (docs/book-format.md, "Boards and cells"), not UTF-16 units
  const length = board.length === tables.cells && !/[\uD800-\uDFFF]/.test(board) ? board.length : [...board].length;
  if (length !== tables.cells) {
    throw new BoardError('length', `board ${show(board)} has ${length} cells; ${whose} needs ${tables.cells}`);
  }
  const bad = board.match(/[^XO.]/u);
  if (bad) throw new BoardError('character', `board "${board}" has ${JSON.stringify(bad[0])}; use X, O and . only`);
  const second = first === 'X' ? 'O' : 'X';
  const a = count(board, first);
  const b = count(board, second);
  if (a - b < 0 || a - b > 1) {
    throw new BoardError('counts', `board "${board}" has ${a} ${first} and ${b} ${second}; ${first} moved first`);
  }
  const { x, o } = marksOf(board);
  const won = lineOwnersOf(x, o, tables);
  if (won.length > 1) throw new BoardError('unreachable', `board "${board}" is unreachable: both X and O have a line`);
  if (won.length === 1) {
    const lastMover = a > b ? first : second;
    if (won[0] !== lastMover) throw new BoardError('unreachable', `board "${board}" is unreachable: ${won[0]} did not move last`);
    if (finished) return;
    const result = tables.misere ? 'has lost (misère)' : 'has won';
    throw new BoardError('over', `board "${board}" is finished: ${won[0]} ${result}`);
  }
  if (!finished && !board.includes('.')) throw new BoardError('over', `board "${board}" is finished: a draw`);
}

const STANDARD = gameRules({ rows: 3, cols: 3, k: 3, misere: false });
const NOT_OVER = null;

/**
 * A position of a game: its board (a string of rows * cols characters in reading order, 'X', 'O'
 * and '.'), its rules ({rows, cols, k, misere}, 3x3 with three in a row by default) and the mark
 * that moved first ('X' by default; in the book's terms the marks are swapped when O did), as
 * tictactoe_book.game.Position. Immutable: play() returns a new position. The board is checked as the
 * reader checks one (BoardError: length, character, counts, unreachable), except that a finished
 * game is a position too; bad rules throw RulesError.
 */
export class Position {
  #tables;
  #outcome;

  constructor(board, rules = STANDARD, first = 'X') {
    if (first !== 'X' && first !== 'O') throw new TypeError(`first must be "X" or "O", got ${show(first)}`);
    const game = rules === STANDARD ? STANDARD : rulesOf(rules);
    const tables = tablesOf(game);
    checkBoard(board, tables, first, { finished: true, whose: rulesName(game) });
    this.board = board;
    this.rules = game;
    this.first = first;
    this.#tables = tables;
    this.#outcome = outcomeOf(board, tables);
    Object.freeze(this);
  }

  /** The start of a game of `rules` (an object or a spelling: "3x4:3") that `first` begins. */
  static empty(rules = STANDARD, first = 'X') {
    const game = rulesOf(rules);
    return new Position('.'.repeat(game.rows * game.cols), game, first);
  }

  /** The mark to move: `first` when the marks are level, else the other. */
  get turn() {
    const second = this.first === 'X' ? 'O' : 'X';
    return count(this.board, this.first) === count(this.board, second) ? this.first : second;
  }

  /** True once a line is complete or no cell is free. */
  get isOver() {
    return this.#outcome !== NOT_OVER;
  }

  /** The free cells in increasing order; none once the game is over. */
  legalMoves() {
    if (this.isOver) return [];
    return [...this.board].flatMap((mark, cell) => (mark === '.' ? [cell] : []));
  }

  /** A new position with `cell` taken by the side to move; IllegalMoveError if it cannot be. */
  play(cell) {
    if (this.isOver) throw new IllegalMoveError(`the game "${this.board}" is over; no move ${show(cell)}`);
    const cells = this.#tables.cells;
    if (!Number.isInteger(cell)) throw new IllegalMoveError(`cell ${show(cell)} is not a cell: cells are whole numbers (0 to ${cells - 1})`);
    if (cell < 0 || cell >= cells) throw new IllegalMoveError(`cell ${show(cell)} is off the board (0 to ${cells - 1})`);
    if (this.board[cell] !== '.') throw new IllegalMoveError(`cell ${cell} of "${this.board}" is taken by ${this.board[cell]}`);
    return new Position(this.board.slice(0, cell) + this.turn + this.board.slice(cell + 1), this.rules, this.first);
  }

  /**
   * null while the game goes on; else the game's Outcome {winner, line, completedBy}: the
   * winner by the rules, 'X', 'O' or null for a draw (under misère the side that completed the
   * line loses, so the other one wins), the completed line's cells (the first of the rules'
   * lines it owns; empty for a draw), and the mark that completed it (null for a draw).
   */
  outcome() {
    return this.#outcome;
  }

  /**
   * The board as a grid for people (tictactoe_book.notation.grid): rows of cells between '|',
   * rows between '+' rules, no final newline; a mark as itself, a free cell as its number from 1
   * (as players are told to number cells), right-aligned to the widest number. On X...O...X:
   *
   *      X | 2 | 3
   *     ---+---+---
   *      4 | O | 6
   *     ---+---+---
   *      7 | 8 | X
   */
  grid() {
    const { rows, cols } = this.rules;
    const width = String(rows * cols).length;
    const cell = (i) => (this.board[i] === '.' ? String(i + 1) : this.board[i]).padStart(width);
    const row = (r) => ` ${Array.from({ length: cols }, (_, c) => cell(r * cols + c)).join(' | ')}`;
    const rule = Array(cols).fill('-'.repeat(width + 2)).join('+');
    return Array.from({ length: rows }, (_, r) => row(r)).join(`\n${rule}\n`);
  }

  /**
   * The cell (0 up) a player means by `text` (tictactoe_book.notation.parse_move): a number from
   * 1 to cells, ASCII digits with spaces, tabs or line ends around it allowed. IllegalMoveError,
   * naming the text as given, unless it is a free cell of a game that goes on ("5" on X...O...X:
   * cell 5 is taken); TypeError for what is no string.
   */
  parseMove(text) {
    if (typeof text !== 'string') throw new TypeError(`a move must be a string such as "5", got ${kindOf(text)}`);
    const cells = this.#tables.cells;
    const digits = text.replace(MOVE_SPACE, '');
    if (!DIGITS.test(digits) || digits.length > MAX_MOVE_DIGITS) {
      throw new IllegalMoveError(`move ${show(text)} is not a cell number: use 1 to ${cells}`);
    }
    const number = Number(digits);
    if (number < 1 || number > cells) throw new IllegalMoveError(`move ${show(text)} is off the board: use 1 to ${cells}`);
    if (this.isOver) throw new IllegalMoveError(`move ${show(text)}: the game is over`);
    if (this.board[number - 1] !== '.') throw new IllegalMoveError(`move ${show(text)}: cell ${number} is taken`);
    return number - 1;
  }

  toString() {
    return this.board;
  }
}

/** The longest move text read as a number (notation.MAX_MOVE_DIGITS): a longer one is no cell of any board. */
const MAX_MOVE_DIGITS = 16;
/** What parseMove takes off around a move (notation._SPACE): spaces, tabs, line ends. */
const MOVE_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g;

/** Position.grid of `position`; TypeError for what is no Position. */
export function grid(position) {
  return positionArgument(position, 'grid').grid();
}

/** Position.parseMove of `position`: the cell (0 up) a player means by `text`, numbered 1 to cells. */
export function parseMove(text, position) {
  return positionArgument(position, 'parseMove').parseMove(text);
}

/** `position` if it is a Position, else a TypeError naming the function `name` it was given to. */
function positionArgument(position, name) {
  if (!(position instanceof Position)) throw new TypeError(`${name} takes a Position, got ${kindOf(position)}`);
  return position;
}

/**
 * A game with its history (tictactoe_book.history.Game): the position it began from, the moves
 * since, and undo, as chess.js's history() and undo(). Positions are immutable; a Game is the one
 * mutable thing a program keeps while people play. `start` is a Position (the empty 3x3 board
 * when left out or null); anything else is a TypeError.
 */
export class Game {
  #positions; // start, then the position after each move: undo is a pop
  #moves = [];

  constructor(start = null) {
    const begun = start ?? Position.empty();
    if (!(begun instanceof Position)) throw new TypeError(`a game starts from a Position (new Position(board, rules)), got ${kindOf(start)}`);
    this.#positions = [begun];
  }

  /** The position the game began from. */
  get start() {
    return this.#positions[0];
  }

  /** The position now. */
  get position() {
    return this.#positions[this.#positions.length - 1];
  }

  /** The cells played since `start`, in order: a frozen copy (the game's own list is not yours to change). */
  get moves() {
    return Object.freeze([...this.#moves]);
  }

  /** Play `cell` for the side to move and return the new position; IllegalMoveError (Position.play) changes nothing. */
  play(cell) {
    const position = this.position.play(cell);
    this.#positions.push(position);
    this.#moves.push(cell);
    return position;
  }

  /** Take the last move back and return its cell; null when no move was played since `start`. */
  undo() {
    if (this.#moves.length === 0) return null;
    this.#positions.pop();
    return this.#moves.pop();
  }
}

/** A board's outcome (Position.outcome), frozen: its board already checked. */
function outcomeOf(board, tables) {
  const { x, o } = marksOf(board);
  const [owner = null] = lineOwnersOf(x, o, tables);
  if (owner === null) {
    return board.includes('.') ? NOT_OVER : Object.freeze({ winner: null, line: Object.freeze([]), completedBy: null });
  }
  const mask = owner === 'X' ? x : o;
  const i = tables.lineMasks.findIndex((line) => (mask & line) === line);
  const winner = tables.misere ? (owner === 'X' ? 'O' : 'X') : owner;
  return Object.freeze({ winner, line: Object.freeze([...tables.lines[i]]), completedBy: owner });
}

// ---------------------------------------------------------------- the reference opponents

/**
 * The reference opponents, player/tictactoe_book/opponents.py's registry mirrored in one table: the fallible
 * players a book's trap order is ranked against, in the order it breaks ties (the first is the
 * one a book is ranked against unless it says otherwise). Each picks uniformly among the cells
 * its preference leaves: a function of three sets of cells as bits (bit c for cell c), the free
 * cells, those completing a line of its own and those completing one of the other side's;
 * `prefersMisere` under misère rules. `words` name it in a sentence; `plays` and `playsMisere`
 * say who it is. Adding an opponent is a row here and one in Python (docs/architecture.md).
 */
export const OPPONENTS = Object.freeze([
  Object.freeze({
    name: 'novice',
    words: 'a novice',
    plays: 'wins if it can, else blocks, else plays at random',
    playsMisere: 'plays at random, never completing a line of its own if it can avoid it',
    prefers: (free, wins, blocks) => wins || blocks || free,
    prefersMisere: (free, wins) => free & ~wins || free,
  }),
  Object.freeze({
    name: 'random',
    words: 'a random player',
    plays: 'plays any free cell',
    playsMisere: 'plays any free cell',
    prefers: (free) => free,
    prefersMisere: (free) => free,
  }),
]);

/** The reference opponent called `name`; a RangeError naming the choices otherwise. */
export function opponentNamed(name) {
  const found = OPPONENTS.find((o) => o.name === name);
  if (!found) throw new RangeError(`unknown opponent ${show(name)}; choose one of ${OPPONENTS.map((o) => o.name).join(', ')}`);
  return found;
}

/**
 * The opponents a trap order ranked against `against` compares by: it first, then the others
 * in the table's order (tictactoe_book.opponents.ranking).
 */
export function ranking(against) {
  const first = opponentNamed(against);
  return [first, ...OPPONENTS.filter((o) => o !== first)];
}

/** Who `opponent` is under `rules` ({misere}), in a few words: `plays` or `playsMisere` (Opponent.description). */
export function opponentPlays(opponent, rules) {
  return rules.misere ? opponent.playsMisere : opponent.plays;
}

/** The cells `opponent` picks among, in increasing order, when it is to move in `position` (not over). */
export function opponentMoves(opponent, position) {
  const { board, turn } = position;
  const tables = tablesOf(position.rules);
  const completing = (mark) => {
    let found = 0;
    for (let cell = 0; cell < tables.cells; cell++) {
      if (board[cell] !== '.') continue;
      const completes = (line) => line.includes(cell) && line.every((c) => c === cell || board[c] === mark);
      if (tables.lines.some(completes)) found |= 1 << cell;
    }
    return found;
  };
  const free = position.legalMoves().reduce((found, cell) => found | (1 << cell), 0);
  const prefers = position.rules.misere ? opponent.prefersMisere : opponent.prefers;
  const chosen = prefers(free, completing(turn), completing(turn === 'X' ? 'O' : 'X'));
  return position.legalMoves().filter((cell) => chosen & (1 << cell));
}

// ---------------------------------------------------------------- entries

/**
 * Step 13: read entry string `text` into best[i] and tierMask[i] (its tier cells as a mask),
 * setting repeated[i] to 1 when a cell is in two tiers (that is step 15's to refuse). Returns
 * why the text does not follow the grammar, or null:
 *
 *   entry   = integer 1*(" " tier)          integer = ["-"] ("0" / [1-9] *DIGIT), |n| <= 2^53 - 1
 *   tier    = cell *("," cell)              cell = "0" / [1-9] *DIGIT, below `cells`, increasing
 *
 * "-0" is an RFC 8259 integer (book-format.md allows it as a JSON number too) and means 0.
 * "Increasing" is strict: a cell twice in one tier ("4,4") is out of order, `entry-shape`; a cell
 * in two tiers ("4 4") is grammatical and `entry-inconsistent`, as the spec lists it.
 */
function readEntry(text, cells, i, best, tierMask, repeated) {
  if (typeof text !== 'string') return `is ${show(text)}, not a string`;
  const end = text.length;
  let at = 0;
  const negative = text.charCodeAt(0) === 0x2d;
  if (negative) at++;
  const from = at;
  let n = 0;
  for (let unit = text.charCodeAt(at); unit >= 0x30 && unit <= 0x39; unit = text.charCodeAt(++at)) n = n * 10 + (unit - 0x30);
  if (at === from) return 'does not start with an integer (the best score)';
  if (at - from > 1 && text.charCodeAt(from) === 0x30) return `has best score ${show(text.slice(0, at))} with a leading zero`;
  // 16 digits at most before 10^16 > 2^53; within 16, n is exact up to one final rounding,
  // which is monotonic, so n > 2^53 - 1 exactly when the digits are.
  if (at - from > 16 || n > Number.MAX_SAFE_INTEGER) return `has best score ${show(text.slice(0, at))} beyond 2^53 - 1`;
  best[i] = negative ? -n || 0 : n;
  if (at === end) return 'has no tiers after its best score';
  let mask = 0;
  while (at < end) {
    if (text.charCodeAt(at) !== 0x20) return `has ${show(text[at])} at offset ${at} where ${mask ? 'a space or a comma' : 'a space'} must be`;
    at++;
    let previous = -1;
    for (;;) {
      const start = at;
      let cell = 0;
      for (let unit = text.charCodeAt(at); unit >= 0x30 && unit <= 0x39; unit = text.charCodeAt(++at)) cell = Math.min(cell * 10 + (unit - 0x30), 1e6);
      if (at === start) return at === end || text.charCodeAt(at) === 0x20 ? `has an empty tier at offset ${start}` : `has ${show(text[at])} at offset ${at} where a cell number must be`;
      if (at - start > 1 && text.charCodeAt(start) === 0x30) return `has cell ${show(text.slice(start, at))} with a leading zero`;
      if (cell >= cells) return `has cell ${text.slice(start, at)} in a tier; the board's cells are 0 to ${cells - 1}`;
      if (cell <= previous) return `has a tier not in increasing order (${previous} then ${cell})`;
      previous = cell;
      if (mask & (1 << cell)) repeated[i] = 1;
      mask |= 1 << cell;
      if (text.charCodeAt(at) !== 0x2c) break;
      at++;
    }
  }
  tierMask[i] = mask;
  return null;
}

/** An entry's tiers as lists of canonical cells (for an entry already read by readEntry). */
function tiersOf(text) {
  return text.split(' ').slice(1).map((tier) => tier.split(',').map(Number));
}

/**
 * The proven (or, from loadBookCached, known proven) entries: the keys and entry strings, each
 * entry's best score, and every move's score derived from its successors, stored per entry and
 * cell in an Int8Array (16 MB for a million 4x4 entries) so that answering needs no search.
 */
class Entries {
  constructor(tables, keys, texts) {
    const size = keys.length;
    this.tables = tables;
    this.keys = keys;
    this.texts = texts;
    this.byCode = tables.cells <= SMALL_CELLS ? new CodeTable(size) : new CodeMap(size);
    this.x = new tables.Masks(size);
    this.o = new tables.Masks(size);
    this.best = new Float64Array(size); // the file's, up to 2^53 - 1 until step 15 has bounded it
    this.scores = new Int8Array(size * tables.cells);
    this.derived = new Uint8Array(size); // 1 once scores[i] holds entry i's derived scores
    this.trouble = { cell: -1, code: -1, entry: -1 }; // what derive() met, when it does not return DERIVED
  }

  /**
   * Derive entry i's move scores into this.scores from its successors (the successor rule, the
   * one definition shared by the proof and the answers). Returns DERIVED, or what it met (only
   * the proof ever does): MISSING when a successor's canonical key is not an entry (at once,
   * this.trouble.cell and .code saying which), else OUT_OF_RANGE when a successor's entry has a
   * best score no move can have (this.trouble.entry; the cell's score is left 0).
   */
  derive(i) {
    const { tables, scores, byCode } = this;
    const { cells, weights, images, misere, linesThrough } = tables;
    const x = this.x[i];
    const o = this.o[i];
    const moverX = popcount(x) === popcount(o);
    const mine = moverX ? x : o;
    const digit = moverX ? 2 : 1;
    const taken = x | o;
    const lastMove = popcount(taken) === cells - 1;
    const symmetries = images.length;
    const base = i * cells;
    let status = DERIVED;
    tables.imageCodes(x, o);
    for (let c = 0; c < cells; c++) {
      const bit = 1 << c;
      if (taken & bit) {
        scores[base + c] = OCCUPIED;
        continue;
      }
      const lines = linesThrough[c];
      let completes = false;
      for (let l = 0; l < lines.length; l++) {
        if (((mine | bit) & lines[l]) === lines[l]) {
          completes = true;
          break;
        }
      }
      if (completes) {
        scores[base + c] = misere ? -cells : cells;
      } else if (lastMove) {
        scores[base + c] = 0;
      } else {
        let code = images[0] + digit * weights[c];
        for (let p = 1; p < symmetries; p++) {
          const image = images[p] + digit * weights[p * cells + c];
          if (image < code) code = image;
        }
        const at = byCode.find(code);
        if (at < 0) {
          this.trouble.cell = c;
          this.trouble.code = code;
          return MISSING;
        }
        const b = byCode.bestAt(at);
        if (b !== NO_SCORE) {
          scores[base + c] = scoreThrough(b);
        } else {
          scores[base + c] = 0;
          this.trouble.entry = byCode.entries[at];
          status = OUT_OF_RANGE;
        }
      }
    }
    if (status === DERIVED) this.derived[i] = 1;
    return status;
  }

  /** Entry i's derived scores (deriving them first when loadBookCached skipped the proof). */
  scoresOf(i) {
    if (!this.derived[i] && this.derive(i) !== DERIVED) throw new Error(`internal error: proven book entry ${this.keys[i]} cannot be derived`);
    return this.scores.subarray(i * this.tables.cells, (i + 1) * this.tables.cells);
  }
}

/** Step 15 for entry i, its scores derived: why it does not follow from its successors, or null. */
function inconsistency(entries, i, tierMask, repeated) {
  const { cells } = entries.tables;
  const { scores } = entries;
  const base = i * cells;
  let top = -Infinity;
  for (let c = 0; c < cells; c++) {
    const s = scores[base + c];
    if (s !== OCCUPIED && s > top) top = s;
  }
  let optimal = 0;
  for (let c = 0; c < cells; c++) if (scores[base + c] === top) optimal |= 1 << c;
  const best = entries.best[i];
  if (best === top && !repeated[i] && tierMask[i] === optimal) return null;
  // Found one: now say what, in the order the spec lists the checks.
  const cellsOf = (mask) => [...Array(cells).keys()].filter((c) => mask & (1 << c));
  if (best !== top) return `has best score ${best}, but its moves' derived scores give ${top}`;
  if (repeated[i]) return 'has a cell in two tiers';
  const extra = tierMask[i] & ~optimal;
  if (extra) {
    const c = lowestCell(extra);
    const why = scores[base + c] === OCCUPIED ? 'an occupied cell' : `whose derived score is ${scores[base + c]}, not ${top}`;
    return `has cell ${c} in its tiers, ${why} (the optimal moves are ${show(cellsOf(optimal))})`;
  }
  return `has tiers that leave out optimal moves ${show(cellsOf(optimal & ~tierMask[i]))}`;
}

/**
 * Steps 10-15, or with `proven` (the bytes are recorded as proven: loadBookCached) only what
 * answering needs: the keys' codes and the best scores, the moves' scores derived on demand.
 * Each step runs over every entry before the next starts, so the code does not depend on the
 * order of the members: only the message, which names the entry found first.
 */
function readEntries(doc, tables, refuse, { proven = false } = {}) {
  const { entries, counts } = doc;
  if (!isObject(entries)) refuse('entries', `has entries ${show(entries)}, not an object`);
  const { names: keys, values: texts } = membersOf(entries);
  if (!isObject(counts) || counts.entries !== keys.length) {
    refuse('counts', `has counts.entries ${show(isObject(counts) ? counts.entries : counts)}, but ${keys.length} entries`);
  }
  const { book, tierMask, repeated } = indexEntries(keys, texts, tables, refuse, { checkKeys: !proven });
  if (proven) return book;
  // Steps 14 and 15 in one pass: a missing successor is refused at once (no earlier step is
  // left), the first inconsistency is kept until every successor has been looked up.
  if (book.byCode.get(0) < 0) refuse('missing-entry', `has no entry for the empty board ${'.'.repeat(tables.cells)}`);
  let inconsistent = null;
  for (let i = 0; i < keys.length; i++) {
    const problem = entryProblem(book, i, tierMask, repeated, inconsistent === null);
    if (problem === null) continue;
    if (problem.code === 'missing-entry') refuse(problem.code, problem.reason);
    inconsistent = problem.reason;
  }
  if (inconsistent !== null) refuse('entry-inconsistent', inconsistent);
  return book;
}

/**
 * Steps 12 and 13 over `keys` and their entry strings `texts`: an Entries holding them (each
 * key's code, each entry's best score), with each entry's tiers as a mask (`tierMask`) and
 * whether a cell is in two of them (`repeated`), which step 15 reads. With `checkKeys` false
 * (keys known to be canonical and unfinished: a proven book's, or those a book by parts looks
 * up by their codes) step 12 checks only their characters.
 */
function indexEntries(keys, texts, tables, refuse, { checkKeys = true } = {}) {
  const { cells, images } = tables;
  const book = new Entries(tables, keys, texts);
  // Step 12: each key a playable board in canonical form.
  const slots = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const marks = key.length === cells ? marksOf(key) : null;
    if (!marks) refuse('entry-key', `has entry key ${show(key)}, which is not ${cells} characters of X, O and .`);
    const { x, o } = marks;
    book.x[i] = x;
    book.o[i] = o;
    tables.imageCodes(x, o);
    if (checkKeys) {
      const lead = popcount(x) - popcount(o);
      let least = images[0];
      for (let p = 1; p < images.length; p++) if (images[p] < least) least = images[p];
      let problem = null;
      if (lead !== 0 && lead !== 1) problem = `has ${popcount(x)} X and ${popcount(o)} O`;
      else if (tables.fillsLine(x) || tables.fillsLine(o)) problem = 'is finished: a line is full';
      else if ((x | o) === tables.full) problem = 'is finished: the board is full';
      else if (least !== images[0]) problem = `is not canonical: its canonical form is ${tables.board(least)}`;
      if (problem) refuse('entry-key', `has entry key ${show(key)}, which ${problem}`);
    }
    slots[i] = book.byCode.add(images[0], i);
  }
  // Step 13: each entry a string of the grammar.
  const tierMask = new tables.Masks(keys.length);
  const repeated = new Uint8Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const problem = readEntry(texts[i], cells, i, book.best, tierMask, repeated);
    if (problem) refuse('entry-shape', `has entry ${keys[i]}, which ${problem}`);
    const b = book.best[i];
    book.byCode.setBest(slots[i], b >= -cells && b <= cells ? b : NO_SCORE);
  }
  return { book, tierMask, repeated };
}

/**
 * Steps 14 and 15 for entry i of `book` (indexEntries's): its moves' scores derived from its
 * successors, then what is wrong with it as {code, reason}, or null. A successor missing is
 * `missing-entry` (book.trouble.code is its canonical code); with `consistency` false that is
 * all it looks for, else an entry that does not follow from its successors is
 * `entry-inconsistent`. The one rule of both, for the whole proof and for a book by parts'
 * answers.
 */
function entryProblem(book, i, tierMask, repeated, consistency = true) {
  const status = book.derive(i);
  const { keys, tables } = book;
  if (status === MISSING) {
    const { cell, code } = book.trouble;
    const key = keys[i];
    const move = key.slice(0, cell) + (popcount(book.x[i]) === popcount(book.o[i]) ? 'X' : 'O') + key.slice(cell + 1);
    return { code: 'missing-entry', reason: `has entry ${key}, whose move at cell ${cell} leads to ${move}, but no entry ${tables.board(code)}` };
  }
  if (!consistency) return null;
  if (status === OUT_OF_RANGE) {
    // A best score outside [-cells, cells] is no move's score: that entry is inconsistent
    // itself, whatever its successors say (docs/book-format.md, "Scores").
    const { entry } = book.trouble;
    const { cells } = tables;
    return { code: 'entry-inconsistent', reason: `has entry ${keys[entry]}, which has best score ${book.best[entry]}; no move scores more than ${cells} or less than ${-cells}` };
  }
  const problem = inconsistency(book, i, tierMask, repeated);
  return problem === null ? null : { code: 'entry-inconsistent', reason: `has entry ${keys[i]}, which ${problem}` };
}

// ---------------------------------------------------------------- loading

function bookRefuser(source) {
  const name = sourceName(source);
  return (code, reason) => {
    throw new BookError(code, `${name}: ${reason} [${code}]`);
  };
}

/**
 * Prove a book and return a reader for it, or throw BookError with the first failing step's
 * code (REASON_CODES). `input` is the file's JSON text, or its bytes (Uint8Array, ArrayBuffer):
 * bytes are checked as the file is (no byte-order mark, valid UTF-8); a string is taken as
 * already decoded. Options: `rules`, the game the caller plays, {rows, cols, k, misere} (misere
 * may be left out for false): a book for another game is refused with `rules`; left out (or
 * null), the book is read by its own rules, as in Python's load_book. `source` names the book
 * in messages.
 */
export function loadBook(input, options) {
  return openBook(input, optionsOf(options));
}

/** A function's options: an object, or null or undefined for none (as Python's None); else a TypeError. */
function optionsOf(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`options must be an object, got ${show(options)}`);
  return options;
}

/**
 * The caller's game, `rules` of loadBook: null (or left out) for the book's own, else the rules
 * of a game ({rows, cols, k}, misere true, false or left out), checked as a Position's
 * (rulesProblem): a member of the wrong type or below 1 is a TypeError naming it (as Python's
 * Rules refuses rows '3'), a board no reader plays (over 20 cells, k longer than both sides) a
 * RulesError; never a book's refusal.
 */
function wantedRules(rules) {
  if (rules === undefined || rules === null) return null;
  if (!isObject(rules)) throw new TypeError(`rules must be {rows, cols, k, misere} or null, got ${show(rules)}`);
  const { rows, cols, k, misere = false } = rules;
  const problem = rulesProblem({ rows, cols, k, misere });
  if (problem?.member) throw new TypeError(`rules.${problem.text}`);
  if (problem) throw new RulesError(problem.text);
  return { rows, cols, k, misere };
}

/** loadBook, or with `proven` (loadBookCached, for bytes recorded as proven) without the proof of the entries. */
function openBook(input, { rules = null, source = 'book' } = {}, { proven = false } = {}) {
  const wanted = wantedRules(rules);
  const refuse = bookRefuser(source);
  const doc = readDocument(input, refuse);
  checkHeader(doc, refuse);
  const tables = new GameTables(checkTables(doc, checkRules(doc.rules, wanted, refuse, MAX_BOOK_CELLS), refuse));
  return new Reader(tables, readEntries(doc, tables, refuse, { proven }), againstOf(doc));
}

/**
 * The opponent a book's tiers are ranked against first (docs/book-format.md, "Trap order"): its
 * `trap_order.against` when that is a string, else the default opponent (OPPONENTS' first). Not part of validity: `ttt-book
 * verify` rebuilds the order against it.
 */
function againstOf(doc) {
  const order = doc.trap_order;
  const against = isObject(order) ? order.against : undefined;
  return typeof against === 'string' ? against : OPPONENTS[0].name;
}

/**
 * The bytes of a book from a fetch Response (`response.ok` is the caller's to check), read no
 * further than a book may be long (MAX_BOOK_BYTES): a Content-Length over it is refused before
 * any byte is read, and a body that passes it as it streams (no length given, a wrong one, a
 * compressed one) is cancelled there. Either is a BookError 'limits', as loadBook refuses such
 * bytes, so a page holds at most about 64 MiB of a book whatever the server sends (a 300 MB
 * stream was read whole first). `progress(received, total)`, if given, is called after each
 * part (total: the Content-Length, or 0 when there is none or the body is compressed). A body
 * that cannot be read is a BookError 'unreadable'. `source` names the book, as in loadBook.
 */
export async function readBookResponse(response, options) {
  const { source = 'book', progress = null } = optionsOf(options);
  const refuse = bookRefuser(source);
  const encoding = response.headers.get('Content-Encoding');
  const length = encoding && encoding !== 'identity' ? 0 : Number(response.headers.get('Content-Length')) || 0;
  if (length > MAX_BYTES) {
    await response.body?.cancel().catch(() => {});
    refuse('limits', `is ${length} bytes long (its Content-Length); a book is at most ${MAX_BYTES} bytes`);
  }
  let body;
  try {
    body = await readBody(response, MAX_BYTES, progress ? (received) => progress(received, length) : null);
  } catch (error) {
    refuse('unreadable', `cannot be read (${error?.message ?? error})`);
  }
  if (body.over) refuse('limits', `is more than ${MAX_BYTES} bytes long (reading stopped there); a book is at most ${MAX_BYTES} bytes`);
  return joined(body.chunks, body.received);
}

/**
 * The body of a fetch Response as it streams: its chunks and their length, read until the end
 * or until they pass `limit` bytes (`over`: the body is cancelled there, its last chunk kept).
 * `progress(received)` is called after each chunk within the limit. Throws what reading throws.
 */
async function readBody(response, limit, progress) {
  const chunks = [];
  let received = 0;
  if (!response.body) return { chunks, received, over: false }; // a response without a body (a HEAD, a 204)
  const reader = response.body.getReader();
  for (;;) {
    const part = await reader.read();
    if (part.done) return { chunks, received, over: false };
    received += part.value.length;
    chunks.push(part.value);
    if (received > limit) {
      await reader.cancel().catch(() => {});
      return { chunks, received, over: true };
    }
    if (progress) progress(received);
  }
}

/** The chunks' bytes in one Uint8Array of `length` bytes. */
function joined(chunks, length) {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The storage item that records a proven book: the prefix, then the SHA-256 of its bytes in lowercase hex. */
export const PROVEN_PREFIX = 'tictactoe-book:proven-sha256:';

/** The lowercase hex SHA-256 of `bytes` (Web Crypto: browsers, and Node >= 20 as globalThis.crypto). */
export async function sha256Hex(bytes) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * loadBook for a page: prove a big book at most once per browser (issue 13 item 6). `storage`
 * is Storage-like (getItem, setItem: the page passes localStorage). The SHA-256 of `bytes` is
 * looked up under PROVEN_PREFIX + hex. When it is recorded, the proof of the entries is
 * skipped (what steps 12, 14 and 15 check; the keys and entry strings are still read, as
 * answering needs them), and moves' scores are derived when first asked; steps 1-11 still run,
 * the caller's `rules` included: a record says the bytes are a valid book, not that it is the
 * game being played. Otherwise the book is proven exactly as loadBook does and, when it passes
 * and is larger than `recordAbove` bytes (1 MB, as the Python record: smaller books prove in
 * milliseconds), its hash is recorded. A record only ever skips the proof for those exact bytes;
 * any other bytes are proven. The bytes are copied when called, and the copy is what is hashed,
 * proven and read: a caller changing its bytes while the promise is pending changes nothing.
 * `input` that is not bytes is proven and never recorded. A storage that throws (full, or
 * refused by the browser) only loses the record. Resolves to a reader; rejects with BookError.
 */
export async function loadBookCached(input, cacheOptions) {
  const { storage, recordAbove = 1_000_000, ...options } = optionsOf(cacheOptions);
  const given = asBytes(input);
  if (!given || !storage) return loadBook(input, options);
  // A copy, taken before the first await: the caller's bytes may change while the hash is
  // computed, and the record then vouches for bytes it never saw. The copy is the one snapshot
  // hashed, looked up, proven and read (issue 41, item 7).
  const bytes = given.slice();
  const item = PROVEN_PREFIX + (await sha256Hex(bytes));
  let recorded = false;
  try {
    recorded = storage.getItem(item) !== null;
  } catch {
    recorded = false;
  }
  if (!recorded) {
    const reader = loadBook(bytes, options);
    if (bytes.length > recordAbove) {
      try {
        storage.setItem(item, '1');
      } catch {
        // no record: the next load proves the book again
      }
    }
    return reader;
  }
  return openBook(bytes, options, { proven: true });
}

const WORDS = { 1: 'win', 0: 'draw', '-1': 'loss' };

/**
 * What every reader shares, whatever holds its entries: the rules and symmetries (derived, and
 * frozen), the checks of a board, and the levels' choice among the moves of an evaluation.
 * Reader (a whole book, proven) and PartsReader (a book by parts, read as asked) answer alike.
 */
class BookReader {
  #tables;

  constructor(tables, against) {
    const { rows, cols, k, cells, misere, lines, perms } = tables;
    /** Whom the trap order is ranked against first: 'novice' or 'random' (againstOf). */
    this.against = against;
    // Frozen: the answers rest on these tables being the derived ones.
    const frozen = (lists) => Object.freeze(lists.map((list) => Object.freeze([...list])));
    this.rules = Object.freeze({ rows, cols, k, misere, cells, first: 'X', second: 'O', empty: '.', lines: frozen(lines) });
    this.cells = cells;
    this.perms = frozen(perms);
    this.#tables = tables;
  }

  /**
   * The marks that own a complete line on `board` (a Set of 'X' and 'O'): who completed a line,
   * not who won (under misère the owner of a line loses; Position.outcome says who won).
   */
  lineOwners(board) {
    const { x, o } = marksOf(board) ?? { x: 0, o: 0 };
    return new Set(lineOwnersOf(x, o, this.#tables));
  }

  /** @deprecated Since 3.0.0; removed in 4.0.0. The same Set as lineOwners (under misère the owners lose). */
  winners(board) {
    return this.lineOwners(board);
  }

  /** The smallest image of `board` (its canonical key) and the index of the first symmetry giving it. */
  canonical(board) {
    const { key, index } = canonicalize(board, this.#tables);
    return { key, index };
  }

  /** Throws BoardError unless `board` (as the game holds it) is playable. */
  check(board, first) {
    checkBoard(board, this.#tables, first);
  }

  /** The cells (0 to cells - 1) `level` chooses among, uniformly (the same rules as player/tictactoe_book/play.py). */
  candidates(evaluation, level) {
    if (typeof evaluation !== 'object' || evaluation === null || !Array.isArray(evaluation.tiers)) {
      throw new TypeError(`candidates takes an evaluation (reader.evaluate(board)), got ${kindOf(evaluation)}`);
    }
    if (level === 'perfect') return evaluation.tiers[0];
    const horizon = HORIZON.get(level);
    if (horizon === undefined) throw new RangeError(`unknown level ${show(level)}; choose one of ${LEVELS.join(', ')}`);
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
}

/**
 * evaluate's question: the board as the game holds it and the mark that moved first, from a
 * board string and options.first ('X' by default), or from a Position (its own first; its rules
 * must be the book's: RulesError); the board checked (BoardError).
 */
function askedOf(reader, board, options) {
  const asked = optionsOf(options);
  let first = asked.first === undefined ? 'X' : asked.first;
  if (board instanceof Position) {
    const { rows, cols, k, misere } = reader.rules;
    const game = board.rules;
    if (game.rows !== rows || game.cols !== cols || game.k !== k || game.misere !== misere) {
      throw new RulesError(`a position of ${rulesName(game)}, but the book is for ${rulesName(reader.rules)}`);
    }
    if (asked.first !== undefined && asked.first !== board.first) {
      throw new TypeError(`first ${show(asked.first)} is not the position's (${board.first} moved first): leave first out when you pass a Position`);
    }
    first = board.first;
    board = board.board;
  }
  if (first !== 'X' && first !== 'O') throw new TypeError(`first must be "X" or "O", got ${show(first)}`);
  reader.check(board, first);
  return { board, first };
}

/**
 * The answer for `board` (first moved first; asked as the game holds it) from entry i of
 * `entries`, its canonical key `key` reached by symmetry `index`: every score and tier mapped
 * back to the board's orientation (Reader.evaluate says what it holds).
 */
function answerOf(reader, entries, i, key, index, board, first) {
  const cells = reader.cells;
  const perm = reader.perms[index];
  const scores = Array(cells).fill(null);
  entries.scoresOf(i).forEach((s, c) => {
    if (s !== OCCUPIED) scores[perm[c]] = s;
  });
  const tiers = tiersOf(entries.texts[i]).map((tier) => tier.map((c) => perm[c]).sort((a, b) => a - b));
  const empties = count(board, '.');
  const { value, plies } = decode(entries.best[i], empties, cells);
  const asBook = first === 'X' ? board : swapMarks(board);
  const turn = moverOf(asBook) === 'X' ? first : swapMarks(first);
  return {
    board,
    first,
    turn,
    value,
    valueWord: WORDS[value],
    plies,
    key,
    symmetry: index,
    scores,
    tiers,
    optimal: tiers.flat().sort((a, b) => a - b),
    outcome: (cell) => {
      // no legal move (taken, off the board, no cell): the move's own check says why, as Python's does
      if (!Number.isInteger(cell) || scores[cell] === null || scores[cell] === undefined) new Position(board, reader.rules, first).play(cell);
      return decode(scores[cell], empties, cells);
    },
  };
}

// ---------------------------------------------------------------- the seeded choice
//
// One definition in every language (tictactoe_book.play.Rng in Python, ttt_random and ttt_choose
// in C, Rng and choose in Rust, the engine's seed), so that one seed plays one game everywhere
// (docs/porting.md, "5. Levels"): mulberry32, its 32-bit state the seed, and a choice among n
// candidates that draws nothing for one, else draws until a number lies below 2^32 - 2^32 mod n
// and takes the candidate at that number mod n.

/** The largest seed: a seed is the generator's 32-bit state (Python's play.MAX_SEED). */
export const MAX_SEED = 2 ** 32 - 1;
const TWO_32 = 2 ** 32;

/**
 * The random numbers the levels choose with: mulberry32 (Tommy Ettinger's, public domain) from
 * `seed`, a whole number from 0 to MAX_SEED (a TypeError for what is no number, a RangeError for
 * one out of range). `state` is the generator's state, itself a seed. The same seed gives the same
 * numbers and the same games as Python's Rng, C's ttt_random, Rust's Rng and the engine.
 */
export class Rng {
  constructor(seed) {
    if (typeof seed !== 'number') throw new TypeError(`a seed is a whole number from 0 to ${MAX_SEED}, got ${show(seed)}`);
    if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new RangeError(`seed ${show(seed)} is not a whole number from 0 to ${MAX_SEED}`);
    }
    this.state = seed;
  }

  /** The next number, 0 to 2^32 - 1 (mulberry32 as published: Math.imul is a product modulo 2^32). */
  nextU32() {
    const state = (this.state + 0x6d2b79f5) >>> 0;
    this.state = state;
    let z = Math.imul(state ^ (state >>> 15), state | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return (z ^ (z >>> 14)) >>> 0;
  }

  /**
   * An index from 0 to count - 1, each as likely: none is drawn for one (0); else a number is
   * drawn again while it lies among the top 2^32 mod count, and the index is the number mod count.
   */
  pick(count) {
    if (!Number.isInteger(count) || count < 1 || count > TWO_32) throw new RangeError(`a choice is among 1 to 2**32 items, not ${show(count)}`);
    if (count === 1) return 0;
    const limit = TWO_32 - (TWO_32 % count);
    for (;;) {
      const number = this.nextU32();
      if (number < limit) return number % count;
    }
  }

  /** One of `items` (pick). */
  choice(items) {
    return items[this.pick(items.length)];
  }
}

/** A seed from the system's randomness (Web Crypto, in Node 18+ and browsers), for choices nobody seeded. */
function randomSeed() {
  const crypto = globalThis.crypto;
  if (crypto?.getRandomValues) return crypto.getRandomValues(new Uint32Array(1))[0];
  return Math.floor(Math.random() * TWO_32);
}

/** The generator of every choice made without one of its own. */
let defaultRng = null;

/**
 * chooseMove's options checked: the level, and what draws: `rng` (an Rng), or `random` (a
 * function returning a number from 0 up to 1, as before 3.0.0), not both; neither, the default Rng.
 */
function choiceOf(options) {
  const { level = 'perfect', rng, random, first } = optionsOf(options);
  if (rng !== undefined && random !== undefined) throw new TypeError('give rng or random, not both: rng = new Rng(seed) plays the games of every language');
  if (random !== undefined) {
    if (typeof random !== 'function') throw new TypeError(`random must be a function, got ${show(random)}`);
    return { level, first, pick: (n) => drawnIndex(n, random) };
  }
  if (rng !== undefined && typeof rng?.pick !== 'function') throw new TypeError(`rng must be an Rng (new Rng(seed)), got ${show(rng)}`);
  const used = rng ?? (defaultRng ??= new Rng(randomSeed()));
  return { level, first, pick: (n) => used.pick(n) };
}

/** An index below `n` from `random()` (a number from 0 up to 1, else a RangeError): floor(random() * n). */
function drawnIndex(n, random) {
  const number = random();
  if (typeof number !== 'number' || !(number >= 0 && number < 1)) {
    throw new RangeError(`random() must return a number from 0 up to 1, got ${show(number)}`);
  }
  return Math.floor(number * n);
}

/** One of `cells` by `pick` (choiceOf's); the only one without a draw. */
function drawn(cells, pick) {
  return cells.length === 1 ? cells[0] : cells[pick(cells.length)];
}

class Reader extends BookReader {
  #entries; // proven: private, so no caller can change what the proof covered
  #tables;

  constructor(tables, entries, against) {
    super(tables, against);
    this.#tables = tables;
    this.#entries = entries;
  }

  /**
   * The book's answer for `board` in its own orientation and marks: turn (the game's mark),
   * value (1 win / 0 draw / -1 loss for the side to move), plies, every legal move's score (an
   * array indexed by cell, 0 to cells - 1, with null for occupied cells), the optimal moves and
   * the trap-order tiers (cells 0 to cells - 1, each tier sorted), and outcome(cell): {value,
   * plies} of that move (a MoveValue, as Python's; a game's result, Position.outcome(), is an
   * Outcome). `first` is the mark that moved first in the game ('X' or 'O'). `board` may be a
   * Position instead: its board and first, its rules those of the book (RulesError if not).
   */
  evaluate(board, options) {
    const { board: asked, first } = askedOf(this, board, options);
    const asBook = first === 'X' ? asked : swapMarks(asked);
    const { key, index, code } = canonicalize(asBook, this.#tables);
    const entries = this.#entries;
    const i = entries.byCode.get(code);
    // The proof (steps 12 and 14) makes the keys exactly the playable boards up to symmetry.
    if (i < 0) throw new Error(`internal error: proven book has no entry ${key}`);
    return answerOf(this, entries, i, key, index, asked, first);
  }

  /**
   * The top tier of the trap order for the side to move (the optimal moves that win most often
   * against fallible opponents; the perfect level chooses among them), in the board's own
   * orientation: cells 0 to cells - 1, ascending.
   */
  bestMoves(board, options) {
    return this.evaluate(board, options).tiers[0];
  }

  /** Every optimal move for the side to move, in increasing order. */
  optimalMoves(board, options) {
    return this.evaluate(board, options).optimal;
  }

  /**
   * The computer's move at `level` (a cell, 0 to cells - 1) on `board` (a string or a Position):
   * one of candidates(), drawn with `rng` (an Rng: new Rng(seed) plays the same game as every
   * other language from that seed; nothing is drawn when the level has one candidate), or with
   * `random()` as before 3.0.0 (floor(random() * n); a number from 0 up to 1 like Math.random:
   * anything else is a RangeError, never a move of undefined); neither, a generator of the
   * system's seeding.
   */
  chooseMove(board, options) {
    const { level, pick, first } = choiceOf(options);
    return drawn(this.candidates(this.evaluate(board, { first }), level), pick);
  }
}

// ---------------------------------------------------------------- a book by parts (format version 3)
//
// docs/book-parts.md: a folder holding manifest.json (version 2's header, `version` 3, and
// `parts` in place of `entries`) and the part files it names, each one zlib stream of the sorted
// lines `KEY ENTRY` of one layer (number of marks) and one range of keys. loadPartsBook checks
// the manifest (steps 1-11: version 2's own checks of the header, then the parts and the counts)
// and reads no part. An answer reads the part of its canonical key and the parts of its
// successors' keys, each checked against the manifest's length and SHA-256 before it is
// inflated, then its layout and its entry strings (steps 12-14 and 16), and kept among the most
// recently used; the entry answered is checked against its successors by the proof's own rule
// (entryProblem: steps 17 and 18). This layer only reads, checks and indexes parts: the header,
// the grammar, the successors, the answers are version 2's code above. What reads a part's bytes
// is the caller's function: openPartsBook in Node reads files (node.js), fetchPartsBook fetches
// URLs (browsers); the rest is this one reader.

/** The manifest's name in a book's folder. */
const MANIFEST = 'manifest.json';
/** A part's file name: letters, digits, '_', '-' and '.', 1 to 100 of them, not starting with '.'. */
const PART_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** A part's text, inflated, is at most this long (a bound on a damaged stream). */
const MAX_PART_TEXT = MAX_BYTES;
/**
 * Parts a reader holds at once unless told otherwise (as the Python reader): a position needs its
 * own part and its successors', at most cells + 1, so a reader never holds fewer than cells + 2.
 */
const CACHED_PARTS = 64;
const thousands = (n) => n.toLocaleString('en-US');

/** Is `key` a string of `cells` characters of X, O and '.' with `layer` marks? */
const inLayer = (key, cells, layer) => typeof key === 'string' && key.length === cells && /^[.OX]*$/.test(key) && count(key, '.') === cells - layer;

/** What is wrong with one item of the manifest's `parts` (step 10), or null. */
function partProblem(item, cells) {
  if (!isObject(item)) return 'that is not an object';
  const { file, layer } = item;
  if (typeof file !== 'string' || !PART_NAME.test(file) || file === MANIFEST) return `with file ${show(file)}, not a part's file name`;
  if (!Number.isInteger(layer) || layer < 0 || layer >= cells) return `with layer ${show(layer)}, not 0 to ${cells - 1}`;
  for (const end of ['first', 'last']) {
    if (!inLayer(item[end], cells, layer)) return `with ${end} ${show(item[end])}, not a board of ${cells} cells with ${layer} marks`;
  }
  if (item.first > item.last) return 'whose first key is after its last';
  for (const member of ['entries', 'bytes']) {
    const value = item[member];
    if (!Number.isInteger(value) || value < 1 || value > MAX_BYTES) return `with ${member} ${show(value)}, not 1 to ${thousands(MAX_BYTES)}`;
  }
  if (typeof item.sha256 !== 'string' || !SHA256_HEX.test(item.sha256)) return `with sha256 ${show(item.sha256)}, not 64 lowercase hex digits`;
  return null;
}

/** Step 10 (`parts`): the list of parts, each well formed, in order (by layer, then by key), no two overlapping or naming one file. */
function checkParts(raw, cells, refuse) {
  if (!Array.isArray(raw) || raw.length === 0) refuse('parts', 'has parts that are not a non-empty array');
  const parts = raw.map((item, place) => {
    const problem = partProblem(item, cells);
    if (problem) refuse('parts', `has parts[${place}] ${problem}`);
    const { file, layer, first, last, entries, bytes, sha256 } = item;
    return Object.freeze({ file, layer, first, last, entries, bytes, sha256 });
  });
  for (let i = 1; i < parts.length; i++) {
    const one = parts[i - 1];
    const two = parts[i];
    if (one.layer > two.layer || (one.layer === two.layer && one.last >= two.first)) {
      refuse('parts', `has part ${show(two.file)} out of order or overlapping ${show(one.file)}`);
    }
  }
  if (new Set(parts.map((part) => part.file)).size !== parts.length) refuse('parts', 'names one file for two parts');
  return Object.freeze(parts);
}

/** Steps 4-11 on the parsed manifest: the game's tables and the parts. */
function checkManifest(doc, wanted, refuse) {
  checkHeader(doc, refuse, PARTS_VERSION);
  const tables = new GameTables(checkTables(doc, checkRules(doc.rules, wanted, refuse, MAX_CELLS), refuse));
  const parts = checkParts(doc.parts, tables.cells, refuse);
  const stated = isObject(doc.counts) ? doc.counts.entries : undefined;
  const total = parts.reduce((sum, part) => sum + part.entries, 0);
  if (stated !== total) refuse('counts', `has ${total} entries in its parts but counts.entries says ${show(stated)}`);
  return { tables, parts };
}

/**
 * The name of part `file` in messages: `source` (the manifest's name: a path or a URL) with its
 * last segment (after the last '/' or '\') replaced by the file's name.
 */
function partSource(source, file) {
  const name = sourceName(source);
  const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  return cut < 0 ? file : name.slice(0, cut + 1) + file;
}

/**
 * Step 14 (`part-format`) on a part's inflated bytes `text`: ASCII lines `KEY ENTRY`, each ending
 * in '\n', its `entries` keys of its layer, strictly increasing, from its `first` to its
 * `last`. Returns a Map of its keys to their entry strings, in key order.
 */
function partEntries(text, part, cells, refuse) {
  const fail = (reason) => refuse('part-format', reason);
  let ascii = text.length > 0 && text[text.length - 1] === 0x0a;
  for (let i = 0; ascii && i < text.length; i++) if (text[i] > 0x7f) ascii = false;
  if (!ascii) fail('is not ASCII lines, each ending in a newline');
  const lines = new TextDecoder().decode(text).split('\n');
  lines.pop();
  if (lines.length !== part.entries) fail(`holds ${thousands(lines.length)} lines; the manifest says ${thousands(part.entries)} entries`);
  const keys = lines.map((line) => line.slice(0, cells));
  keys.forEach((key, i) => {
    if (lines[i][cells] !== ' ' || !inLayer(key, cells, part.layer)) fail(`has line ${show(lines[i])}, not a key of ${part.layer} marks, a space and an entry`);
  });
  if (keys[0] !== part.first || keys[keys.length - 1] !== part.last) {
    fail(`holds keys ${show(keys[0])} to ${show(keys[keys.length - 1])}; the manifest says ${show(part.first)} to ${show(part.last)}`);
  }
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] >= keys[i]) fail(`has key ${show(keys[i])} out of increasing order`);
  return new Map(keys.map((key, i) => [key, lines[i].slice(cells + 1)]));
}

/** A Uint8Array as a ReadableStream of one chunk (a copy: a stream may take its buffer). */
const streamOf = (bytes) => new ReadableStream({
  start(controller) {
    controller.enqueue(bytes.slice());
    controller.close();
  },
});

/** The bytes `raw` inflate to through DecompressionStream('deflate'); more than `limit` of them is an error. */
async function inflateStream(raw, limit) {
  const reader = streamOf(raw).pipeThrough(new DecompressionStream('deflate')).getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return joined(chunks, length);
    length += value.length;
    if (length > limit) {
      await reader.cancel().catch(() => {});
      throw new Error(`it holds more than ${thousands(limit)} bytes`);
    }
    chunks.push(value);
  }
}

/**
 * The default inflate of loadPartsBook (browsers; Node >= 18 has DecompressionStream too): the
 * zlib stream `raw` inflated, at most `limit` bytes, and nothing after it. A stream followed by
 * other bytes is one some DecompressionStreams (Node's) inflate without a word, so it is found
 * another way: without its last byte, a stream that ends exactly there is cut short.
 */
async function inflateWeb(raw, limit) {
  const text = await inflateStream(raw, limit);
  let cutShort = false;
  try {
    await inflateStream(raw.subarray(0, raw.length - 1), limit);
  } catch {
    cutShort = true;
  }
  if (!cutShort) throw new Error('bytes follow the end of the stream');
  return text;
}

/**
 * Check a book by parts' manifest and return a reader that reads its parts as its answers need
 * them, or throw BookError with the first failing step's code (REASON_CODES, or
 * PARTS_REASON_CODES for `parts`; docs/book-parts.md). `manifest` is manifest.json's bytes or
 * text, as loadBook takes a book's. Options: `readPart(file, bytes)` (required), the bytes of the
 * part file named `file` in the manifest's folder (or a Promise of them); the manifest says it
 * has `bytes` of them, and a reader may stop after bytes + 1. Anything it throws is the part's
 * `part-missing`. `sha256(bytes)`, the lowercase hex SHA-256 (default: Web Crypto's, sha256Hex),
 * and `inflate(bytes, limit)`, the zlib stream's inflated bytes (default:
 * DecompressionStream's), throwing when the bytes are not exactly one zlib stream or inflate to
 * more than `limit`; either may return a Promise. `rules` and `source` as loadBook's; a part is
 * named in messages by `source` with its last segment replaced by the part's file.
 * `cacheParts`: how many parts to hold at once (default 64; never fewer than cells + 2).
 */
export function loadPartsBook(manifest, options) {
  const { rules = null, source = MANIFEST, readPart, sha256 = sha256Hex, inflate = inflateWeb, cacheParts = CACHED_PARTS } = optionsOf(options);
  for (const [name, given] of [['readPart', readPart], ['sha256', sha256], ['inflate', inflate]]) {
    if (typeof given !== 'function') throw new TypeError(`${name} must be a function, got ${show(given)}`);
  }
  if (!Number.isInteger(cacheParts) || cacheParts < 0) throw new TypeError(`cacheParts must be a whole number, got ${show(cacheParts)}`);
  const wanted = wantedRules(rules);
  const refuse = bookRefuser(source);
  const doc = readDocument(manifest, refuse);
  const { tables, parts } = checkManifest(doc, wanted, refuse);
  const limit = Math.max(cacheParts, tables.cells + 2);
  return new PartsReader(tables, againstOf(doc), parts, { source, readPart, sha256, inflate, limit });
}

/**
 * A reader of a book by parts, as loadPartsBook returns it: the same answers as a Reader of the
 * version-2 book it holds, each a Promise (a part may have to be read first). `parts` is the
 * manifest's list; `reads` counts the part files read so far, and `bytesRead` their bytes.
 */
class PartsReader extends BookReader {
  #tables;
  #parts;
  #layers = new Map(); // layer -> {places, firsts}: its parts' places in #parts and first keys, in order
  #cache = new Map(); // place -> Promise of the part's entries (a Map), least recently used first
  #access;
  #reads = 0;
  #bytesRead = 0;

  constructor(tables, against, parts, access) {
    super(tables, against);
    this.#tables = tables;
    this.#parts = parts;
    this.#access = access;
    parts.forEach((part, place) => {
      if (!this.#layers.has(part.layer)) this.#layers.set(part.layer, { places: [], firsts: [] });
      const layer = this.#layers.get(part.layer);
      layer.places.push(place);
      layer.firsts.push(part.first);
    });
    /** The manifest's parts, in its order: {file, layer, first, last, entries, bytes, sha256}. */
    this.parts = parts;
  }

  /** How many part files this reader has read (a part dropped from its cache and needed again is read again). */
  get reads() {
    return this.#reads;
  }

  /** How many bytes of part files this reader has read. */
  get bytesRead() {
    return this.#bytesRead;
  }

  /** The place in `parts` of the part whose range holds `key`, or -1: its layer's part with the last first key not after it. */
  #placeOf(key) {
    const layer = this.#layers.get(this.cells - count(key, '.'));
    if (!layer) return -1;
    const { places, firsts } = layer;
    let low = 0;
    let high = firsts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (firsts[middle] <= key) low = middle + 1;
      else high = middle;
    }
    if (low === 0) return -1;
    const place = places[low - 1];
    return key > this.#parts[place].last ? -1 : place;
  }

  /** The entries of the part at `place` (a Promise), read and checked unless held; held as the most recently used. */
  #part(place) {
    const cache = this.#cache;
    let found = cache.get(place);
    if (found) {
      cache.delete(place);
    } else {
      found = this.#read(this.#parts[place]);
      // a part that fails is not held: it fails again, with its code, each time it is needed
      found.catch(() => {
        if (cache.get(place) === found) cache.delete(place);
      });
    }
    cache.set(place, found);
    if (cache.size > this.#access.limit) cache.delete(cache.keys().next().value);
    return found;
  }

  /** Steps 12-14 and 16 on one part: its bytes read and checked against the manifest, inflated, laid out, its entry strings checked. */
  async #read(part) {
    const { readPart, sha256, inflate, source } = this.#access;
    const refuse = bookRefuser(partSource(source, part.file));
    let raw;
    try {
      raw = asBytes(await readPart(part.file, part.bytes));
    } catch (error) {
      refuse('part-missing', `part ${show(part.file)} cannot be read (${error?.message ?? error})`);
    }
    if (!raw) refuse('part-missing', `part ${show(part.file)} cannot be read (readPart gave no bytes)`);
    this.#reads += 1;
    this.#bytesRead += raw.length;
    if (raw.length !== part.bytes) {
      const length = raw.length > part.bytes ? `more than ${thousands(part.bytes)}` : thousands(raw.length);
      refuse('part-hash', `is ${length} bytes; the manifest says ${thousands(part.bytes)}`);
    }
    raw = raw.slice(); // a copy: the bytes hashed are the bytes inflated, whatever the caller does with its own
    const digest = await sha256(raw);
    if (digest !== part.sha256) {
      refuse('part-hash', `has SHA-256 ${typeof digest === 'string' && SHA256_HEX.test(digest) ? digest : show(digest)}; the manifest says ${part.sha256}`);
    }
    let text;
    try {
      text = asBytes(await inflate(raw, MAX_PART_TEXT));
    } catch (error) {
      refuse('part-format', `is not one whole zlib stream of at most ${thousands(MAX_PART_TEXT)} bytes of text (${error?.message ?? error})`);
    }
    if (!text || text.length > MAX_PART_TEXT) refuse('part-format', `holds more than ${thousands(MAX_PART_TEXT)} bytes of text`);
    const entries = partEntries(text, part, this.cells, refuse);
    // step 16: every entry string of the part follows the grammar (readEntry, into scratch arrays)
    const scratch = [new Float64Array(1), new this.#tables.Masks(1), new Uint8Array(1)];
    for (const [key, entry] of entries) {
      const problem = readEntry(entry, this.cells, 0, ...scratch);
      if (problem) refuse('entry-shape', `has entry ${key}, which ${problem}`);
    }
    return entries;
  }

  /** The entry string of canonical `key` (a Promise), or undefined when no part holds it. */
  async #text(key) {
    const place = this.#placeOf(key);
    return place < 0 ? undefined : (await this.#part(place)).get(key);
  }

  /**
   * The entry of canonical `key` (asked for `board`) checked against its successors (steps 17
   * and 18: entryProblem, the proof's rule): an Entries holding it at 0 and the successors it
   * needs, each looked up as derive asks for it, so only the parts they lie in are read.
   */
  async #proven(key, board) {
    const text = await this.#text(key);
    if (text === undefined) bookRefuser(this.#access.source)('missing-entry', `has no entry ${show(key)} for ${show(board)}`);
    const refuse = bookRefuser(partSource(this.#access.source, this.#parts[this.#placeOf(key)].file));
    const keys = [key];
    const texts = [text];
    for (;;) {
      const { book, tierMask, repeated } = indexEntries(keys, texts, this.#tables, refuse, { checkKeys: false });
      if (book.derive(0) === MISSING) {
        const successor = this.#tables.board(book.trouble.code);
        // a key indexed under another code than the one asked for: a fault of the tables, which
        // would otherwise ask for the same successor for ever
        if (keys.includes(successor)) throw new Error(`internal error: entry ${successor} is not found under its own code`);
        const found = await this.#text(successor);
        if (found !== undefined) {
          keys.push(successor);
          texts.push(found);
          continue;
        }
      }
      const problem = entryProblem(book, 0, tierMask, repeated);
      if (problem) refuse(problem.code, problem.reason);
      return book;
    }
  }

  /** Reader.evaluate's answer, as a Promise: the parts it needs are read first. */
  async evaluate(board, options) {
    const { board: asked, first } = askedOf(this, board, options);
    const { key, index } = canonicalize(first === 'X' ? asked : swapMarks(asked), this.#tables);
    return answerOf(this, await this.#proven(key, asked), 0, key, index, asked, first);
  }

  /** Reader.bestMoves, as a Promise. */
  async bestMoves(board, options) {
    return (await this.evaluate(board, options)).tiers[0];
  }

  /** Reader.optimalMoves, as a Promise. */
  async optimalMoves(board, options) {
    return (await this.evaluate(board, options)).optimal;
  }

  /** Reader.chooseMove, as a Promise. */
  async chooseMove(board, options) {
    const { level, pick, first } = choiceOf(options);
    return drawn(this.candidates(await this.evaluate(board, { first }), level), pick);
  }
}

/**
 * The manifest's URL of a book by parts at `where` (a URL, or a string resolved against the
 * page's address): itself when its path ends in /manifest.json, else the folder's manifest.json.
 */
function manifestURL(where) {
  const url = new URL(where, globalThis.location?.href);
  if (!url.pathname.endsWith(`/${MANIFEST}`)) url.pathname += url.pathname.endsWith('/') ? MANIFEST : `/${MANIFEST}`;
  return url;
}

/**
 * loadPartsBook over HTTP: the manifest fetched from `where` (the folder's URL or the manifest's;
 * relative to the page in a browser) and read as readBookResponse reads a book, each part fetched
 * by plain GET from its URL relative to the manifest's (a status other than 2xx is its
 * `part-missing`), no further than one byte past its length. Options: loadPartsBook's (not
 * `readPart`), and `fetch` (default: globalThis.fetch). A manifest that cannot be fetched is a
 * BookError `unreadable`. Resolves to the reader; its SHA-256 and inflate are Web Crypto's and
 * DecompressionStream's unless given.
 */
export async function fetchPartsBook(where, options) {
  const { fetch: get = globalThis.fetch, ...rest } = optionsOf(options);
  if (typeof get !== 'function') throw new TypeError(`fetch must be a function, got ${show(get)}`);
  const url = manifestURL(where);
  const source = rest.source ?? url.href;
  const refuse = bookRefuser(source);
  let response;
  try {
    response = await get(url.href);
  } catch (error) {
    refuse('unreadable', `cannot be read (${error?.message ?? error})`);
  }
  if (!response.ok) refuse('unreadable', `cannot be read (HTTP status ${response.status})`);
  const manifest = await readBookResponse(response, { source });
  const readPart = async (file, bytes) => {
    const answer = await get(new URL(file, url).href);
    if (!answer.ok) {
      await answer.body?.cancel().catch(() => {});
      throw new Error(`HTTP status ${answer.status}`);
    }
    const body = await readBody(answer, bytes, null);
    return joined(body.chunks, body.received);
  };
  return loadPartsBook(manifest, { ...rest, source, readPart });
}
