// tictactoe-book reader: one ES module, no dependencies, for Node >= 18 and browsers.
//
// The book (docs/book-format.md) stores one entry per canonical position. To answer for any
// board: swap the marks if O moved first, check the board, find its smallest image under the
// book's symmetries (image[i] = board[perm[i]]), look that key up, and map every canonical
// cell c back to the real cell perm[c]. No search, no game logic beyond the book's own data.

export const FORMAT = 'tictactoe-book';
export const VERSION = 1;
export const LEVELS = Object.freeze(['perfect', 'hard', 'medium', 'easy']);
const HORIZON = { hard: 4, medium: 2, easy: 1 };
const MAX_BOOK_CHARS = 64 * 1024 * 1024;

/** A book that cannot be used: malformed, another version or rules, or damaged. */
export class BookError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BookError';
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

// ---------------------------------------------------------------- checksum (docs/book-format.md)

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** RFC 8785 canonical JSON for the book's content: sorted keys, no white space. */
export function canonicalJSON(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** "crc32:" and 8 hex digits over the canonical JSON of the book without its checksum. */
export function contentChecksum(data) {
  const { checksum, ...content } = data;
  const crc = crc32(new TextEncoder().encode(canonicalJSON(content)));
  return `crc32:${crc.toString(16).padStart(8, '0')}`;
}

// ---------------------------------------------------------------- loading

const isInt = (v) => Number.isInteger(v);
const sameList = (a, b) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Check a book (JSON text or the parsed object) and return a reader for it.
 * Options: rules {rows, cols, k} the caller plays (default 3x3, k = 3), or null for any.
 */
export function loadBook(json, { rules = { rows: 3, cols: 3, k: 3 }, source = 'book' } = {}) {
  const fail = (reason) => new BookError(`${source}: ${reason}`);
  let data = json;
  if (typeof json === 'string') {
    if (json.length > MAX_BOOK_CHARS) throw fail('is too large to be a book');
    try {
      data = JSON.parse(json);
    } catch (error) {
      throw fail(`is not valid JSON (${error.message})`);
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw fail('is not a book object');
  if (data.format !== FORMAT) throw fail(`is not a ${FORMAT} file (format ${JSON.stringify(data.format)})`);
  if (data.version !== VERSION) {
    throw fail(`has format version ${JSON.stringify(data.version)}; this reader reads version ${VERSION}`);
  }
  const r = data.rules;
  if (!r || typeof r !== 'object' || ![r.rows, r.cols, r.k].every((v) => isInt(v) && v >= 1)) {
    throw fail('has no valid rules');
  }
  if (rules && (r.rows !== rules.rows || r.cols !== rules.cols || r.k !== rules.k)) {
    throw fail(`is a book for ${r.rows}x${r.cols} k=${r.k}, not ${rules.rows}x${rules.cols} k=${rules.k}`);
  }
  const cells = r.rows * r.cols;
  if (r.cells !== cells || cells > 16) throw fail('has a wrong cell count');
  if (r.first !== 'X' || r.second !== 'O' || r.empty !== '.') throw fail("uses marks other than X, O and '.'");
  const inBoard = (c) => isInt(c) && c >= 0 && c < cells;
  if (!Array.isArray(r.lines) || !r.lines.length || !r.lines.every((l) => Array.isArray(l) && l.length === r.k && l.every(inBoard))) {
    throw fail('has malformed winning lines');
  }
  const perms = Array.isArray(data.symmetries) ? data.symmetries.map((s) => s && s.perm) : [];
  const identity = [...Array(cells).keys()];
  const isPerm = (p) => Array.isArray(p) && p.length === cells && [...p].sort((a, b) => a - b).every((v, i) => v === i);
  if (!perms.length || !perms.every(isPerm) || !sameList(perms[0], identity)) {
    throw fail('has symmetries that are not permutations starting with the identity');
  }
  if (data.canonical !== 'min-image') throw fail(`uses canonical rule ${JSON.stringify(data.canonical)}`);
  if (!data.entries || typeof data.entries !== 'object' || Array.isArray(data.entries)) throw fail('has no entries');
  if (typeof data.checksum !== 'string' || contentChecksum(data) !== data.checksum) {
    throw fail(`checksum ${JSON.stringify(data.checksum)} does not match its content: the file was altered`);
  }
  const book = new Reader(data, r, perms, cells, fail);
  for (const key of Object.keys(data.entries)) book.entry(key); // check every entry now
  return book;
}

// ---------------------------------------------------------------- boards

function decode(score, empties, cells) {
  if (score > 0) return { value: 1, plies: cells + 1 - score };
  if (score < 0) return { value: -1, plies: cells + 1 + score };
  return { value: 0, plies: empties };
}

const count = (board, mark) => board.split(mark).length - 1;
const swapMarks = (board) => board.replace(/[XO]/g, (m) => (m === 'X' ? 'O' : 'X'));
const WORDS = { 1: 'win', 0: 'draw', '-1': 'loss' };

class Reader {
  constructor(data, rules, perms, cells, fail) {
    this.data = data;
    this.rules = rules;
    this.perms = perms;
    this.cells = cells;
    this.fail = fail;
    this.checked = new Map();
  }

  /** The checked entry under canonical `key`, or undefined. */
  entry(key) {
    if (this.checked.has(key)) return this.checked.get(key);
    if (!Object.prototype.hasOwnProperty.call(this.data.entries, key)) return undefined;
    const raw = this.data.entries[key];
    const { cells, fail } = this;
    if (typeof key !== 'string' || key.length !== cells || /[^XO.]/.test(key)) throw fail(`has bad entry key ${key}`);
    const x = count(key, 'X');
    const o = count(key, 'O');
    const empties = cells - x - o;
    if (x - o < 0 || x - o > 1 || !empties || this.winners(key).size) throw fail(`has entry ${key}, which is not playable`);
    if (this.canonical(key).key !== key) throw fail(`has entry ${key}, which is not canonical`);
    if (!raw || typeof raw !== 'object' || raw.turn !== (x === o ? 'X' : 'O')) throw fail(`entry ${key} has a wrong turn`);
    const { scores, tiers } = raw;
    if (!Array.isArray(scores) || scores.length !== cells) throw fail(`entry ${key} needs ${cells} scores`);
    let best = -Infinity;
    scores.forEach((s, c) => {
      const free = key[c] === '.';
      if (!free && s !== null) throw fail(`entry ${key} scores occupied cell ${c}`);
      if (!free) return;
      if (!isInt(s) || Math.abs(s) > cells) throw fail(`entry ${key} has score ${s} for cell ${c}`);
      const { value, plies } = decode(s, empties, cells);
      if (s && (plies < 1 || plies > empties || plies % 2 !== (value > 0 ? 1 : 0))) {
        throw fail(`entry ${key} has an impossible score ${s} for cell ${c}`);
      }
      best = Math.max(best, s);
    });
    const stated = decode(best, empties, cells);
    if (raw.value !== stated.value || raw.plies !== stated.plies) throw fail(`entry ${key} value disagrees with its scores`);
    const optimal = scores.flatMap((s, c) => (key[c] === '.' && s === best ? [c] : []));
    const wellFormed = Array.isArray(tiers) && tiers.length && tiers.every((t) => Array.isArray(t) && t.length);
    const flat = wellFormed ? tiers.flat() : null;
    if (!flat || !flat.every(isInt) || !sameList([...flat].sort((a, b) => a - b), optimal)) {
      throw fail(`entry ${key} tiers are not exactly its optimal moves`);
    }
    const entry = { key, turn: raw.turn, value: raw.value, plies: raw.plies, scores: [...scores], tiers: tiers.map((t) => [...t]) };
    this.checked.set(key, entry);
    return entry;
  }

  winners(board) {
    const found = new Set();
    for (const line of this.rules.lines) {
      const mark = board[line[0]];
      if (mark !== '.' && line.every((c) => board[c] === mark)) found.add(mark);
    }
    return found;
  }

  /** The smallest image of `board` and the index of the first symmetry giving it. */
  canonical(board) {
    let key = board;
    let index = 0;
    this.perms.forEach((perm, i) => {
      const image = perm.map((c) => board[c]).join('');
      if (image < key) {
        key = image;
        index = i;
      }
    });
    return { key, index };
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
   * with null for occupied cells), the optimal moves and the trap-order tiers.
   */
  evaluate(board, { first = 'X' } = {}) {
    if (first !== 'X' && first !== 'O') throw new TypeError(`first must be "X" or "O", got ${JSON.stringify(first)}`);
    this.check(board, first);
    const asBook = first === 'X' ? board : swapMarks(board);
    const { key, index } = this.canonical(asBook);
    const entry = this.entry(key);
    if (!entry) throw new BoardError('unreachable', `board "${board}" is not in the book: it cannot arise in play`);
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

  /** Every optimal move for the side to move, in the board's own orientation. */
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

  /** The computer's move at `level`; `random()` returns [0, 1) like Math.random. */
  chooseMove(board, { level = 'perfect', random = Math.random, first = 'X' } = {}) {
    const options = this.candidates(this.evaluate(board, { first }), level);
    if (options.length === 1) return options[0];
    return options[Math.min(options.length - 1, Math.floor(random() * options.length))];
  }
}
