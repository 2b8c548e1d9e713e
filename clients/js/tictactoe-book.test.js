// Run with `node --test clients/js/` (make test does). Every conformance vector; the derived
// tables; one damaged book per way of failing each step of docs/book-format.md "A valid book",
// with the exact reason code; books that must still load; level semantics; a never-loses
// enumeration; and a seeded fuzzer, all against the shipped book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BoardError, BookError, LEVELS, REASON_CODES, deriveLines, deriveSymmetries, loadBook, parseStrictJSON,
} from './tictactoe-book.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bookBytes = readFileSync(`${root}book/tictactoe.json`);
const bookText = bookBytes.toString('utf8');
const vectors = JSON.parse(readFileSync(`${root}book/vectors.json`, 'utf8'));
const book = loadBook(bookText);

// ---------------------------------------------------------------- an independent oracle

// The 3x3 winning lines, written out by hand (the reader derives its own).
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const won = (board, mark) => LINES.some((line) => line.every((c) => board[c] === mark));
const other = (m) => (m === 'X' ? 'O' : 'X');

/** Every reachable unfinished position of an X-first game. */
function playablePositions() {
  const seen = new Set();
  const walk = (board, turn) => {
    if (seen.has(board) || won(board, 'X') || won(board, 'O') || !board.includes('.')) return;
    seen.add(board);
    for (let c = 0; c < 9; c++) if (board[c] === '.') walk(board.slice(0, c) + turn + board.slice(c + 1), other(turn));
  };
  walk('.........', 'X');
  return [...seen];
}
const POSITIONS = playablePositions();

/** What a reader says about every position: the proven facts, and the trap-order tiers unless `proven`. */
function answers(reader, { proven = false } = {}) {
  return POSITIONS.map((board) => {
    const e = reader.evaluate(board);
    const facts = [board, e.turn, e.value, e.plies, e.key, e.symmetry, e.scores, e.optimal];
    return JSON.stringify(proven ? facts : [...facts, e.tiers]);
  });
}
const REAL = answers(book);
const REAL_PROVEN = answers(book, { proven: true });

// ---------------------------------------------------------------- vectors

test('the vectors are for this book', () => {
  assert.equal(vectors.format, 'tictactoe-book-vectors');
  if ('book_sha256' in vectors) {
    assert.equal(vectors.book_sha256, createHash('sha256').update(bookBytes).digest('hex'));
  }
  assert.ok(vectors.valid.length >= 4520 + 400);
});

test('every valid vector', () => {
  const words = { 1: 'win', 0: 'draw', '-1': 'loss' };
  for (const v of vectors.valid) {
    const answer = book.evaluate(v.board, { first: v.first });
    const where = `${v.board} (first ${v.first})`;
    assert.equal(answer.turn, v.turn, where);
    assert.equal(answer.key, v.key, where);
    assert.equal(answer.symmetry, v.symmetry, where);
    assert.equal(words[answer.value], v.value, where);
    assert.equal(answer.plies, v.plies, where);
    assert.deepEqual(answer.optimal, v.optimal, where);
    assert.deepEqual(answer.tiers[0], v.top, where);
    for (const [level, cells] of Object.entries(v.levels)) {
      assert.deepEqual(book.candidates(answer, level), cells, `${where} at level ${level}`);
    }
    assert.deepEqual(answer.scores, v.scores, where);
    assert.deepEqual(book.bestMoves(v.board, { first: v.first }), v.optimal, where);
  }
});

test('every invalid vector is refused with its reason', () => {
  assert.ok(vectors.invalid.length >= 10);
  for (const v of vectors.invalid) {
    assert.throws(
      () => book.evaluate(v.board, { first: v.first }),
      (error) => error instanceof BoardError && error.code === v.error,
      `${JSON.stringify(v.board)} should fail with ${v.error}`,
    );
  }
});

// ---------------------------------------------------------------- derived tables

test('derived lines: 8 on 3x3, as the book lists them; other sizes by count', () => {
  assert.deepEqual(deriveLines(3, 3, 3), LINES);
  assert.deepEqual(deriveLines(3, 3, 3), JSON.parse(bookText).rules.lines);
  assert.deepEqual(book.rules.lines, LINES);
  // 3x4, k = 3: 3 rows x 2 starts, 4 columns, 2 + 2 diagonals.
  assert.equal(deriveLines(3, 4, 3).length, 14);
  assert.equal(deriveLines(4, 4, 4).length, 10);
});

test('derived symmetries: permutations, identity first, closed under composition, keeping the lines', () => {
  for (const [rows, cols, n] of [[3, 3, 8], [4, 4, 8], [3, 4, 4], [4, 3, 4], [1, 3, 2], [1, 1, 1]]) {
    const perms = deriveSymmetries(rows, cols);
    const cells = rows * cols;
    const name = `${rows}x${cols}`;
    assert.equal(perms.length, n, name);
    assert.deepEqual(perms[0], [...Array(cells).keys()], name);
    const known = new Set(perms.map((p) => p.join()));
    assert.equal(known.size, n, `${name}: no repeats`);
    for (const p of perms) {
      assert.deepEqual([...p].sort((a, b) => a - b), [...Array(cells).keys()], `${name}: ${p} is a permutation`);
      for (const q of perms) assert.ok(known.has(q.map((c) => p[c]).join()), `${name}: ${p} then ${q}`);
      const lines = deriveLines(rows, cols, Math.min(rows, cols));
      const asSet = (ls) => new Set(ls.map((l) => [...l].sort((a, b) => a - b).join()));
      assert.deepEqual(asSet(lines.map((l) => l.map((c) => p[c]))), asSet(lines), `${name}: ${p} maps lines to lines`);
    }
  }
});

test('the canonical key is the same for every image of every position', () => {
  for (const board of POSITIONS) {
    const { key } = book.canonical(board);
    for (const perm of book.perms) assert.equal(book.canonical(perm.map((c) => board[c]).join('')).key, key, board);
  }
});

// ---------------------------------------------------------------- strict JSON

test('strict JSON: what the parser accepts and refuses', () => {
  assert.deepEqual(parseStrictJSON(' {"a": [1, -2, 0, -0, true, null, "\\u00e9\\ud83d\\ude00"]} '), Object.assign(Object.create(null), {
    a: [1, -2, 0, 0, true, null, 'é😀'],
  }));
  const proto = parseStrictJSON('{"__proto__": {"polluted": 1}, "b": 2}');
  assert.equal(Object.getPrototypeOf(proto), null);
  assert.deepEqual(Object.keys(proto), ['__proto__', 'b']);
  assert.equal({}.polluted, undefined);
  for (const bad of ['{"a":1,"a":1}', '8.0', '8e0', '1E2', '01', '9007199254740992', '"\\ud800"', '"\\udc00\\ud800"',
    '"\ud800"', '[1,]', '{"a":1,}', "'a'", 'NaN', '\ufeff{}', '{} x', '"\t"', '', ' ', 'nul', '"\\x41"']) {
    assert.throws(() => parseStrictJSON(bad), SyntaxError, JSON.stringify(bad));
  }
  assert.equal(parseStrictJSON('-9007199254740991'), -9007199254740991);
  assert.equal(parseStrictJSON('"\ud83d\ude00"'), '😀');
  assert.deepEqual(parseStrictJSON(`${'['.repeat(32)}${']'.repeat(32)}`).flat(40), []);
  assert.throws(() => parseStrictJSON(`${'['.repeat(33)}${']'.repeat(33)}`), /nesting deeper than 32/);
});

// ---------------------------------------------------------------- damaged books, one code each

const MAX_BYTES = 64 * 1024 * 1024;
const realDoc = () => JSON.parse(bookText);
/** The book changed as a parsed object, written back as compact JSON. */
function damaged(change) {
  const doc = realDoc();
  change(doc);
  return JSON.stringify(doc);
}
/** `text` with the first `find` replaced: for what a parsed object cannot express. */
function edited(find, replace, text = bookText) {
  assert.ok(text.includes(find), `${find} is in the book`);
  return text.replace(find, () => replace);
}
/** The book with an unknown top-level member, given as JSON text, in front. */
const withMember = (member, text = bookText) => `{${member},${text.slice(1)}`;
const marks = (text) => text.split(/[[{,]/).length - 1;
function removeEntry(doc, key) {
  delete doc.entries[key];
  doc.counts.entries--;
}
function addEntry(doc, key, entry) {
  doc.entries[key] = entry;
  doc.counts.entries++;
}
/** A symmetry of no board: the old reader took it from the file (see the attack test). */
const FAKE_SYMMETRY = [2, 3, 6, 7, 4, 5, 0, 1, 8];

// [name, expected code, () => input, options]
const REFUSED = [
  ['a parsed object', 'unreadable', () => JSON.parse(bookText)],
  ['no input', 'unreadable', () => undefined],
  ['over 64 MiB of white space', 'limits', () => bookText + ' '.repeat(MAX_BYTES - bookText.length + 1)],
  ['over 64 MiB as bytes', 'limits', () => Buffer.concat([bookBytes, Buffer.alloc(MAX_BYTES, 0x20)])],
  ['under 64 Mi characters but over 64 MiB of UTF-8', 'limits', () => withMember(`"zz":"${'€'.repeat(Math.ceil(MAX_BYTES / 3))}"`)],
  ['2,000,001 commas in an unknown string', 'limits', () => withMember(`"zz":"${','.repeat(2_000_001)}"`)],
  ['one [ { , over 2,000,000', 'limits', () => withMember(`"zz":"${'{'.repeat(2_000_000 - marks(bookText))}"`)],
  ['truncated', 'json', () => bookText.slice(0, 4000)],
  ['text after the book', 'json', () => `${bookText}x`],
  ['"plies": 8.0', 'json', () => edited('"plies":8,', '"plies":8.0,')],
  ['"plies": 8e0', 'json', () => edited('"plies":8,', '"plies":8e0,')],
  ['integer 2^53 in an unknown member', 'json', () => withMember('"zz":9007199254740992')],
  ['integer -2^53 in an unknown member', 'json', () => withMember('"zz":[-9007199254740992]')],
  ['escaped lone surrogate in an unknown member', 'json', () => withMember('"zz":"\\ud800"')],
  ['raw lone surrogate in an unknown member name', 'json', () => withMember('"z\ud800":1')],
  ['33-deep nesting in an unknown member', 'json', () => withMember(`"zz":${'['.repeat(32)}${']'.repeat(32)}`)],
  ['1,000,000-deep nesting', 'json', () => withMember(`"zz":${'['.repeat(1_000_000)}`)],
  ['1,000,000-deep nesting, nothing else', 'json', () => '{"a":'.repeat(1_000_000)],
  ['duplicate top-level key', 'json', () => edited('{"canonical"', '{"format":"tictactoe-book","canonical"')],
  ['duplicate key in an entry, same value', 'json', () => edited('"plies":9,', '"plies":9,"plies":9,')],
  ['duplicate __proto__', 'json', () => withMember('"__proto__":1,"__proto__":1')],
  ['a byte-order mark (bytes)', 'json', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bookBytes])],
  ['a byte-order mark (text)', 'json', () => `\ufeff${bookText}`],
  ['invalid UTF-8', 'json', () => Buffer.concat([Buffer.from('{"zz":"'), Buffer.from([0xff]), Buffer.from(`",${bookText.slice(1)}`)])],
  ['an array', 'format', () => '[]'],
  ['another format', 'format', () => damaged((d) => { d.format = 'chess-book'; })],
  ['version 2', 'version', () => damaged((d) => { d.version = 2; })],
  ['version "1"', 'version', () => damaged((d) => { d.version = '1'; })],
  ['no version', 'version', () => damaged((d) => { delete d.version; })],
  ['another canonical rule (after the version)', 'format', () => damaged((d) => { d.canonical = 'max-image'; })],
  ['k = 2 for a 3x3 k = 3 player', 'rules', () => damaged((d) => { d.rules.k = 2; })],
  ['a 3x3 book for a 3x4 player', 'rules', () => bookText, { rules: { rows: 3, cols: 4, k: 3 } }],
  ['rows 0', 'rules', () => damaged((d) => { d.rules.rows = 0; }), { rules: null }],
  ['a 5x4 board', 'rules', () => damaged((d) => { d.rules.rows = 5; d.rules.cols = 4; d.rules.cells = 20; }), { rules: null }],
  ['k longer than both sides', 'rules', () => damaged((d) => { d.rules.k = 4; }), { rules: null }],
  ['10 cells', 'rules', () => damaged((d) => { d.rules.cells = 10; })],
  ['first mark Y', 'rules', () => damaged((d) => { d.rules.first = 'Y'; })],
  ['no rules', 'rules', () => damaged((d) => { delete d.rules; })],
  ['lines missing the diagonals', 'lines', () => damaged((d) => { d.rules.lines.splice(6, 2); })],
  ['lines in another order', 'lines', () => damaged((d) => { d.rules.lines.reverse(); })],
  ['a line walked backwards', 'lines', () => damaged((d) => { d.rules.lines[7] = [6, 4, 2]; })],
  ['k = 2 lines when any rules are accepted', 'lines', () => damaged((d) => { d.rules.k = 2; }), { rules: null }],
  ['a fake extra symmetry', 'symmetries', () => damaged((d) => { d.symmetries.push({ name: 'fake', perm: FAKE_SYMMETRY }); })],
  ['a symmetry that is not a permutation', 'symmetries', () => damaged((d) => { d.symmetries[1].perm[0] = 1; })],
  ['a symmetry missing', 'symmetries', () => damaged((d) => { d.symmetries.pop(); })],
  ['symmetries in another order', 'symmetries', () => damaged((d) => { d.symmetries.reverse(); })],
  ['a symmetry without a name', 'symmetries', () => damaged((d) => { delete d.symmetries[3].name; })],
  ['entries is a list', 'entries', () => damaged((d) => { d.entries = []; })],
  ['counts.entries one too many', 'counts', () => damaged((d) => { d.counts.entries++; })],
  ['no counts', 'counts', () => damaged((d) => { delete d.counts; })],
  ['a non-canonical key', 'entry-key', () => damaged((d) => {
    d.entries['X........'] = d.entries['........X'];
    delete d.entries['........X'];
  })],
  ['a key with two X more than O', 'entry-key', () => damaged((d) => { addEntry(d, 'XX.......', d.entries['........X']); })],
  ['a finished key', 'entry-key', () => damaged((d) => { addEntry(d, 'XXXOO....', d.entries['........X']); })],
  // Written as text: on an ordinary object, d.entries.__proto__ = ... would set the prototype.
  ['a key named __proto__', 'entry-key', () => edited('"entries":627', '"entries":628', edited('"entries":{', '"entries":{"__proto__":{},'))],
  ['"value": true', 'entry-shape', () => damaged((d) => { d.entries['........X'].value = true; })],
  ['a null entry', 'entry-shape', () => damaged((d) => { d.entries['........X'] = null; })],
  ['eight scores', 'entry-shape', () => damaged((d) => { d.entries['........X'].scores.pop(); })],
  ['a score "0"', 'entry-shape', () => damaged((d) => { d.entries['........X'].scores[0] = '0'; })],
  ['no tiers', 'entry-shape', () => damaged((d) => { d.entries['........X'].tiers = []; })],
  ['an empty tier', 'entry-shape', () => damaged((d) => { d.entries['........X'].tiers.push([]); })],
  ['turn "x"', 'entry-shape', () => damaged((d) => { d.entries['........X'].turn = 'x'; })],
  ['a missing entry (counts adjusted)', 'missing-entry', () => damaged((d) => { removeEntry(d, '....X....'); })],
  ['no empty board (counts adjusted)', 'missing-entry', () => damaged((d) => { removeEntry(d, '.........'); })],
  // . . .
  // . . .      O to move: only the centre draws; the damaged entry says it loses and the rest draw
  // . . X
  ['........X: centre -4, others 0, consistent within the entry', 'entry-inconsistent', () => damaged((d) => {
    d.entries['........X'] = { plies: 8, scores: [0, 0, 0, 0, -4, 0, 0, 0, null], tiers: [[0, 1, 2, 3, 5, 6, 7]], turn: 'O', value: 0 };
  })],
  ['a tier holding a non-optimal move', 'entry-inconsistent', () => damaged((d) => { d.entries['........X'].tiers.push([0]); })],
  ['a cell twice in the tiers', 'entry-inconsistent', () => damaged((d) => { d.entries['........X'].tiers.push([4]); })],
  ['a tier holding a cell off the board', 'entry-inconsistent', () => damaged((d) => { d.entries['........X'].tiers[0].push(99); })],
  ['tiers leaving out an optimal move', 'entry-inconsistent', () => damaged((d) => { d.entries['.........'].tiers.pop(); })],
  ['wrong turn', 'entry-inconsistent', () => damaged((d) => { d.entries['.........'].turn = 'O'; })],
  ['a score on an occupied cell', 'entry-inconsistent', () => damaged((d) => { d.entries['........X'].scores[8] = 0; })],
  ['a wrong value', 'entry-inconsistent', () => damaged((d) => { d.entries['.........'].value = 1; })],
  ['a wrong plies', 'entry-inconsistent', () => damaged((d) => { d.entries['.........'].plies = 7; })],
  ['an entry with no scores under a consistent-looking parent', 'entry-inconsistent', () => damaged((d) => {
    d.entries['........X'].scores = Array(9).fill(null);
  })],
];

function assertRefused(input, code, options, name = code) {
  assert.throws(() => loadBook(input, options), (error) => {
    assert.ok(error instanceof BookError, `${name}: ${error.name}: ${error.message}`);
    assert.equal(error.code, code, `${name}: ${error.message}`);
    assert.ok(error.message.startsWith('book: ') && error.message.endsWith(`[${code}]`), error.message);
    return true;
  });
}

for (const [name, code, make, options] of REFUSED) {
  test(`refused: ${name} -> ${code}`, () => assertRefused(make(), code, options, name));
}

test('the refusal cases cover every reason code', () => {
  assert.deepEqual(new Set(REFUSED.map(([, code]) => code)), new Set(REASON_CODES));
  assert.equal(REASON_CODES.length, 14);
});

test('a message names the source and the offending value', () => {
  const text = damaged((d) => { d.entries['........X'].tiers.push([0]); });
  assert.throws(() => loadBook(text, { source: 'x.json' }), /^BookError: x\.json: has entry \.\.\.\.\.\.\.\.X, which has cell 0 in its tiers/);
  assert.throws(() => loadBook(bookText.slice(0, 4000), { source: 'x.json' }), /^BookError: x\.json: is not valid JSON: .* \[json\]$/);
  assert.throws(() => loadBook(bookText, { rules: { rows: 3, cols: 4, k: 3 } }), /not 3x4 k=3/);
});

// The two attacks that the checksum-era reader fell for: it took the symmetries from the file,
// so one extra permutation sent boards to entries of other positions (the checksum was simply
// recomputed). It answered [3] here:
// X O .
// . O .      X to move must block at 7 (bottom middle)
// . . X
// and [8] here, when 2 wins at once:
// X X .
// . O X      X to move
// O O .
test('a fake symmetry is refused, so the old wrong answers cannot be given', () => {
  assert.deepEqual(book.bestMoves('XO..O...X'), [7]);
  assert.deepEqual(book.bestMoves('XX..OXOO.'), [2]);
  const attack = damaged((d) => { d.symmetries.push({ name: 'rotate 90 (really)', perm: FAKE_SYMMETRY }); });
  assertRefused(attack, 'symmetries');
  const replaced = damaged((d) => { d.symmetries[7].perm = FAKE_SYMMETRY; });
  assertRefused(replaced, 'symmetries');
});

test('steps run over every entry before the next step: the code does not depend on member order', () => {
  // An entry-shape fault in the first entry, an entry-key fault in the last one.
  const keyLast = damaged((d) => {
    d.entries['.........'].value = true;
    addEntry(d, 'XXXXXXXXX', d.entries['........X']);
  });
  // A consistency fault in the first entry, a missing entry found later.
  const missingLast = damaged((d) => {
    d.entries['.........'].value = 1;
    removeEntry(d, '....X....');
  });
  for (const text of [keyLast, missingLast]) {
    const code = text === keyLast ? 'entry-key' : 'missing-entry';
    assertRefused(text, code);
    assertRefused(reversedKeys(JSON.parse(text)), code);
  }
});

// ---------------------------------------------------------------- books that must load

/** JSON with the members of every object written in reverse order. */
function reversedKeys(value) {
  if (Array.isArray(value)) return `[${value.map(reversedKeys)}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).reverse().map((k) => `${JSON.stringify(k)}:${reversedKeys(value[k])}`)}}`;
  }
  return JSON.stringify(value);
}

const LOADS = [
  ['the bytes (Buffer)', () => bookBytes],
  ['the bytes (ArrayBuffer)', () => new Uint8Array(bookBytes).buffer],
  ['re-indented', () => JSON.stringify(JSON.parse(bookText), null, 2)],
  ['keys in reverse order', () => reversedKeys(JSON.parse(bookText))],
  ['unknown members at the top level, in rules, in a symmetry, in an entry', () => damaged((d) => {
    d.comment = 'made by hand';
    d.rules.note = { any: [1, 'value'] };
    d.symmetries[2].alias = 'flip';
    d.entries['........X'].why = null;
  })],
  ['a checksum member (old books)', () => damaged((d) => { d.checksum = 'crc32:7ac2990c'; })],
  ['a wrong checksum member (it is ignored)', () => damaged((d) => { d.checksum = 'crc32:00000000'; })],
  ['no checksum member', () => damaged((d) => { delete d.checksum; })],
  ['an unknown __proto__ member', () => withMember('"__proto__":{"format":"other","entries":{}}')],
  ['integers of 2^53 - 1 in an unknown member', () => withMember('"zz":[9007199254740991,-9007199254740991]')],
  ['a surrogate pair, escaped and raw', () => withMember('"zz":"\\ud83d\\ude00 \ud83d\ude00"')],
  ['nesting exactly 32 deep', () => withMember(`"zz":${'['.repeat(31)}${']'.repeat(31)}`)],
  ['exactly 2,000,000 of [ { ,', () => withMember(`"zz":"${','.repeat(2_000_000 - marks(bookText) - 1)}"`)],
  ['exactly 64 MiB', () => bookText + ' '.repeat(MAX_BYTES - bookText.length)],
];

for (const [name, make] of LOADS) {
  test(`loads: ${name}`, () => {
    const input = make();
    if (name.startsWith('exactly 2,000,000')) assert.equal(marks(input), 2_000_000);
    assert.deepEqual(answers(loadBook(input)), REAL);
  });
}

// ---------------------------------------------------------------- playing

test('levels: everyone takes a win; medium and hard block; unknown levels are refused', () => {
  // X X . / O O . / . . .   X to move wins at 2
  for (const level of LEVELS) assert.deepEqual(book.candidates(book.evaluate('XX.OO....'), level), [2]);
  // X X . / O . . / . . .   O to move must block at 2
  assert.deepEqual(book.candidates(book.evaluate('XX.O.....'), 'medium'), [2]);
  assert.deepEqual(book.candidates(book.evaluate('XX.O.....'), 'hard'), [2]);
  assert.equal(book.candidates(book.evaluate('XX.O.....'), 'easy').length, 6);
  assert.throws(() => book.chooseMove('.........', { level: 'expert' }), RangeError);
});

test('chooseMove is reproducible with an injected random and varies among ties', () => {
  const seen = new Set();
  for (let i = 0; i < 4; i++) seen.add(book.chooseMove('.........', { random: () => i / 4 }));
  assert.deepEqual([...seen].sort(), [0, 2, 6, 8]);
  assert.equal(book.chooseMove('OO.X.....', { first: 'O' }), 2);
});

test('the tables a caller sees cannot be changed', () => {
  assert.throws(() => { book.rules.lines[0][0] = 4; }, TypeError);
  assert.throws(() => { book.perms.push([0]); }, TypeError);
});

test('perfect never loses, as X or O, whoever moves first, following every tie', () => {
  for (const first of ['X', 'O']) {
    for (const computer of ['X', 'O']) {
      const seen = new Set();
      const walk = (board, turn) => {
        if (seen.has(board)) return;
        seen.add(board);
        assert.ok(!won(board, other(computer)), `lost on ${board}`);
        if (won(board, computer) || !board.includes('.')) return;
        const moves = turn === computer
          ? book.candidates(book.evaluate(board, { first }), 'perfect')
          : [...board].flatMap((m, c) => (m === '.' ? [c] : []));
        for (const c of moves) walk(board.slice(0, c) + turn + board.slice(c + 1), other(turn));
      };
      walk('.........', first);
      assert.ok(seen.size > 100);
    }
  }
});

// ---------------------------------------------------------------- fuzz

const KINDS = ['0123456789', 'XO.', 'abcdefghijklmnopqrstuvwxyz'].map((chars) => [...chars].map((c) => c.charCodeAt(0)));
/** A byte of the same kind as `byte` (a digit for a digit, a mark for a mark, a letter for a letter). */
function sameKind(byte, below) {
  const kind = KINDS.find((k) => k.includes(byte));
  return kind ? kind[below(kind.length)] : byte;
}

test('fuzz: seeded byte flips and truncations load an equivalent book or fail with BookError', () => {
  let seed = 20261122;
  const next = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const below = (n) => Math.floor(next() * n);
  const codes = new Map();
  let loaded = 0;
  for (let i = 0; i < 500; i++) {
    const bytes = Buffer.from(bookBytes);
    let input = bytes;
    const kind = i % 5;
    if (kind === 0) {
      input = bytes.subarray(0, below(bytes.length + 1));
    } else {
      for (let f = 0; f < 1 + (i % 3); f++) {
        const at = below(bytes.length);
        if (kind === 1) bytes[at] = below(256); // any byte
        else if (kind === 2) bytes[at] ^= 1 << below(8); // one bit
        else if (kind === 3) bytes[at] = 32 + below(95); // printable ASCII
        else bytes[at] = sameKind(bytes[at], below); // keeps the JSON valid, to reach the later steps
      }
    }
    if (i % 2) input = input.toString('utf8'); // the text path too (invalid UTF-8 becomes U+FFFD)
    let reader;
    try {
      reader = loadBook(input);
    } catch (error) {
      assert.ok(error instanceof BookError, `mutation ${i}: ${error.name}: ${error.message}`);
      assert.ok(REASON_CODES.includes(error.code), error.code);
      codes.set(error.code, (codes.get(error.code) ?? 0) + 1);
      continue;
    }
    loaded++;
    // Validity proves every fact but the order of the tiers (trap order: docs/book-format.md).
    assert.deepEqual(answers(reader, { proven: true }), REAL_PROVEN, `mutation ${i} loaded with other answers`);
  }
  // The mutations reach both ends of the proof: the JSON layer and the entries' own steps.
  const reached = [...codes.keys()];
  assert.ok(
    loaded > 0 && codes.has('json') && reached.filter((c) => c.startsWith('entry-')).length >= 2,
    `loaded ${loaded}, refused ${JSON.stringify([...codes])}`,
  );
});
