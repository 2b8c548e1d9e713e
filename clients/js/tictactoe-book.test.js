// Run with `node --test clients/js/` (make test does). Every conformance vector; the derived
// tables; one damaged book per way of failing each step of docs/book-format.md "A valid book"
// (version 2: entries are strings, "<best> <tier> <tier> ..."), with the exact reason code;
// books that must still load; misère and other sizes from an independent solver
// (make-v2-book.mjs); the proven-book record of loadBookCached; level semantics; a never-loses
// enumeration; and a seeded fuzzer, all against the shipped book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  BoardError, BookError, LEVELS, MAX_BOOK_BYTES, PROVEN_PREFIX, Position, REASON_CODES, RulesError, deriveLines, deriveSymmetries, loadBook, loadBookCached, loadPartsBook,
  parseStrictJSON, readBookResponse, sha256Hex,
} from './tictactoe-book.js';
import { checkVectors } from './check-vectors.mjs';
import { makeBook, solve } from './make-v2-book.mjs';

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
    const facts = [board, e.turn, e.value, e.plies, e.key, e.symmetry, e.scores, e.optimal, e.valueWord];
    return JSON.stringify(proven ? facts : [...facts, e.tiers]);
  });
}
const REAL = answers(book);
const REAL_PROVEN = answers(book, { proven: true });

// ---------------------------------------------------------------- vectors

// The shipped books and their vectors: every board of both, in both readers (docs/conformance.md).
const VECTOR_FILES = [
  ['tictactoe.json', 'vectors.json', ['empty', 'can-win', 'must-block', 'lost']],
  ['tictactoe-misere.json', 'tictactoe-misere.vectors.json', ['empty', 'can-lose', 'lost']],
  ['tictactoe-vs-random.json', 'tictactoe-vs-random.vectors.json', ['empty', 'can-win', 'must-block', 'lost']],
  ['tictactoe-misere-vs-random.json', 'tictactoe-misere-vs-random.vectors.json', ['empty', 'can-lose', 'lost']],
];

for (const [bookName, vectorsName, tags] of VECTOR_FILES) {
  const bytes = readFileSync(`${root}book/${bookName}`);
  const shipped = JSON.parse(readFileSync(`${root}book/${vectorsName}`, 'utf8'));

  test(`${vectorsName}: for ${bookName}, every position and random orientations`, () => {
    assert.equal(shipped.format, 'tictactoe-book-vectors');
    assert.equal(shipped.book_sha256, createHash('sha256').update(bytes).digest('hex'));
    assert.equal(shipped.every_board, true);
    assert.equal(new Set(shipped.valid.filter((v) => v.first === 'X').map((v) => v.board)).size, 4520);
    assert.ok(shipped.valid.length >= 4520 + 400);
    assert.deepEqual([...new Set(shipped.valid.flatMap((v) => v.tags))].sort(), [...tags].sort());
    assert.ok(shipped.invalid.length >= 10);
  });

  test(`${vectorsName}: every valid vector answered, every invalid one refused with its reason`, () => {
    assert.deepEqual(checkVectors(loadBook(bytes), shipped), []);
  });
}

test('a reader says whom its book ranks against: trap_order.against, else novice', () => {
  const read = (name) => loadBook(readFileSync(`${root}book/${name}`));
  assert.equal(read('tictactoe.json').against, 'novice');
  assert.equal(read('tictactoe-vs-random.json').against, 'random');
  assert.equal(read('tictactoe-misere-vs-random.json').against, 'random');
  const doc = JSON.parse(bookText);
  for (const [order, expected] of [[{ ...doc.trap_order, against: 'random' }, 'random'], [{ method: 'exact', tolerance: '0', against: 7 }, 'novice'], ['x', 'novice']]) {
    assert.equal(loadBook(JSON.stringify({ ...doc, trap_order: order })).against, expected);
  }
  // the vectors check it: the random book's vectors fail on the novice book
  const randomVectors = JSON.parse(readFileSync(`${root}book/tictactoe-vs-random.vectors.json`, 'utf8'));
  assert.ok(checkVectors(loadBook(bookText), randomVectors).some((line) => line.includes('ranked against novice, not random')));
});

test('checkVectors finds a reader that maps a tier back wrong', () => {
  const wrong = loadBook(bookText);
  const evaluate = wrong.evaluate.bind(wrong);
  wrong.evaluate = (board, options) => {
    const answer = evaluate(board, options);
    return board === 'X...O....' ? { ...answer, tiers: [[8]] } : answer;
  };
  const failures = checkVectors(wrong, vectors);
  // the board's own vectors, and the perfect games through it (its top tier is what they choose among)
  const own = (line) => line.startsWith('X...O.... ') || line.startsWith('the perfect game from ');
  assert.ok(failures.some((line) => line.startsWith('X...O.... ')) && failures.every(own), failures.join('\n'));
});

test('checkVectors finds a seeded game or a generator number that is not the reader\'s', () => {
  const games = vectors.games.map((game, i) => (i === 0 ? { ...game, state: game.state + 1 } : i === 1 ? { ...game, moves: [...game.moves].reverse() } : game));
  const generator = vectors.generator.map((item, i) => (i === 1 ? { ...item, numbers: [1, 2, 3, 4, 5] } : item));
  const failures = checkVectors(book, { ...vectors, games, generator });
  assert.deepEqual(failures.map((line) => line.split(':')[0]), [
    'the generator from 1',
    `the ${games[0].level} game from ${games[0].seed} (first ${games[0].first})`,
    `the ${games[1].level} game from ${games[1].seed} (first ${games[1].first})`,
  ]);
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
    '"\ud800"', '[1,]', '{"a":1,}', "'a'", 'NaN', '\ufeff{}', '{} x', '"\t"', '', ' ', 'nul', '"\\x41"',
    '"\u001f"', '"\u0000"', '"a\u001fb"', '"\\udc00\\udc00"', '"\\udfff\\ude00"', '"\\udc00\\u0041"']) {
    assert.throws(() => parseStrictJSON(bad), SyntaxError, JSON.stringify(bad));
  }
  assert.equal(parseStrictJSON('-9007199254740991'), -9007199254740991);
  assert.equal(parseStrictJSON('"\ud83d\ude00"'), '😀');
  assert.deepEqual(parseStrictJSON(`${'['.repeat(32)}${']'.repeat(32)}`).flat(40), []);
  assert.throws(() => parseStrictJSON(`${'['.repeat(33)}${']'.repeat(33)}`), /nesting deeper than 32/);
});

// ---------------------------------------------------------------- damaged books, one code each

const MAX_BYTES = 67_108_864;
const MAX_MARKS = 4_000_000;
const MISERE = { rows: 3, cols: 3, k: 3, misere: true };
const realDoc = () => JSON.parse(bookText);
/** The book changed as a parsed object, written back as compact JSON. */
function damaged(change, text = bookText) {
  const doc = JSON.parse(text);
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
/** The book with entry `key` written as `entry` (any JSON value). */
const withEntry = (key, entry) => damaged((d) => { d.entries[key] = entry; });
/** A symmetry of no board: the old reader took it from the file (see the attack test). */
const FAKE_SYMMETRY = [2, 3, 6, 7, 4, 5, 0, 1, 8];
const solutions = new Map();
/** The independent solver's solution (make-v2-book.mjs, written apart from the reader), solved once per rules. */
function solution(rules) {
  const name = JSON.stringify([rules.rows, rules.cols, rules.k, rules.misere ?? false]);
  if (!solutions.has(name)) solutions.set(name, solve(rules));
  return solutions.get(name);
}
/** A 3x3 misère book from the independent solver (make-v2-book.mjs). */
const misereText = makeBook(MISERE, solution(MISERE));

test('without rules, a book is read by its own rules (misère, 3x4), as Python load_book does', () => {
  const misere = loadBook(misereText);
  assert.equal(misere.rules.misere, true);
  // misère: taking the centre is the one opening that does not lose
  assert.deepEqual(misere.optimalMoves('.........'), [4]);
  const threeByFour = loadBook(makeBook({ rows: 3, cols: 4, k: 3 }, solution({ rows: 3, cols: 4, k: 3 })));
  assert.deepEqual([threeByFour.rules.rows, threeByFour.rules.cols, threeByFour.cells], [3, 4, 12]);
  assert.equal(threeByFour.evaluate('............').valueWord, 'win');
  assert.equal(loadBook(bookText).rules.misere, false);
});

// The entries the cases below damage:
// . . .
// . . .      ........X: "0 4", O to move: only the centre draws (the rest lose in 6 plies, -4)
// . . X
// . . .
// . . .      .......OX: "5 2,4,5", X to move wins in 5 plies at 2, 4 or 5
// . O X
// and the empty board: "0 0,2,6,8 1,3,5,7 4", every move draws, corners first.

// [name, expected code, () => input, options]
const REFUSED = [
  ['a number', 'unreadable', () => 627],
  ['null', 'unreadable', () => null],
  ['no input', 'unreadable', () => undefined],
  ['over 64 MiB of white space', 'limits', () => bookText + ' '.repeat(MAX_BYTES - bookText.length + 1)],
  ['over 64 MiB as bytes', 'limits', () => Buffer.concat([bookBytes, Buffer.alloc(MAX_BYTES, 0x20)])],
  ['under 64 Mi characters but over 64 MiB of UTF-8', 'limits', () => withMember(`"zz":"${'€'.repeat(Math.ceil(MAX_BYTES / 3))}"`)],
  ['4,000,001 commas in an unknown string', 'limits', () => withMember(`"zz":"${','.repeat(MAX_MARKS + 1)}"`)],
  ['one [ { , over 4,000,000', 'limits', () => withMember(`"zz":"${'{'.repeat(MAX_MARKS - marks(bookText))}"`)],
  ['truncated', 'json', () => bookText.slice(0, 4000)],
  ['text after the book', 'json', () => `${bookText}x`],
  ['counts.entries 627.0', 'json', () => edited('"entries":627,', '"entries":627.0,')],
  ['rules.k 3e0', 'json', () => edited('"k":3,', '"k":3e0,')],
  ['integer 2^53 in an unknown member', 'json', () => withMember('"zz":9007199254740992')],
  ['integer -2^53 in an unknown member', 'json', () => withMember('"zz":[-9007199254740992]')],
  ['escaped lone surrogate in an unknown member', 'json', () => withMember('"zz":"\\ud800"')],
  ['raw lone surrogate in an unknown member name', 'json', () => withMember('"z\ud800":1')],
  ['33-deep nesting in an unknown member', 'json', () => withMember(`"zz":${'['.repeat(32)}${']'.repeat(32)}`)],
  ['1,000,000-deep nesting', 'json', () => withMember(`"zz":${'['.repeat(1_000_000)}`)],
  ['1,000,000-deep nesting, nothing else', 'json', () => '{"a":'.repeat(1_000_000)],
  ['duplicate top-level key', 'json', () => edited('{"canonical"', '{"format":"tictactoe-book","canonical"')],
  ['duplicate key in rules, same value', 'json', () => edited('"k":3,', '"k":3,"k":3,')],
  ['duplicate entry key, same entry', 'json', () => edited('"........X":"0 4",', '"........X":"0 4","........X":"0 4",')],
  ['duplicate entry key, escaped', 'json', () => edited('"........X":"0 4",', '"........X":"0 4","\\u002e.......X":"0 4",')],
  ['duplicate __proto__', 'json', () => withMember('"__proto__":1,"__proto__":1')],
  ['a byte-order mark (bytes)', 'json', () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bookBytes])],
  ['a byte-order mark (text)', 'json', () => `\ufeff${bookText}`],
  ['invalid UTF-8', 'json', () => Buffer.concat([Buffer.from('{"zz":"'), Buffer.from([0xff]), Buffer.from(`",${bookText.slice(1)}`)])],
  ['an entry string with a raw tab', 'json', () => edited('"........X":"0 4"', '"........X":"0\t4"')],
  ['an array', 'format', () => '[]'],
  ['another format', 'format', () => damaged((d) => { d.format = 'chess-book'; })],
  ['version 1 (the format this reader no longer reads)', 'version', () => damaged((d) => { d.version = 1; })],
  ['version 3', 'version', () => damaged((d) => { d.version = 3; })],
  ['version "2"', 'version', () => damaged((d) => { d.version = '2'; })],
  ['no version', 'version', () => damaged((d) => { delete d.version; })],
  ['another canonical rule (after the version)', 'format', () => damaged((d) => { d.canonical = 'max-image'; })],
  ['k = 2 for a 3x3 k = 3 player', 'rules', () => damaged((d) => { d.rules.k = 2; }), { rules: { rows: 3, cols: 3, k: 3 } }],
  ['a 3x3 book for a 3x4 player', 'rules', () => bookText, { rules: { rows: 3, cols: 4, k: 3 } }],
  ['rows 0', 'rules', () => damaged((d) => { d.rules.rows = 0; }), { rules: null }],
  ['a 5x4 board', 'rules', () => damaged((d) => { d.rules.rows = 5; d.rules.cols = 4; d.rules.cells = 20; }), { rules: null }],
  ['k longer than both sides', 'rules', () => damaged((d) => { d.rules.k = 4; }), { rules: null }],
  ['10 cells', 'rules', () => damaged((d) => { d.rules.cells = 10; })],
  ['first mark Y', 'rules', () => damaged((d) => { d.rules.first = 'Y'; })],
  ['no rules', 'rules', () => damaged((d) => { delete d.rules; })],
  ['no rules.misere', 'rules', () => damaged((d) => { delete d.rules.misere; }), { rules: null }],
  ['rules.misere "false"', 'rules', () => damaged((d) => { d.rules.misere = 'false'; }), { rules: null }],
  ['rules.misere 0', 'rules', () => damaged((d) => { d.rules.misere = 0; }), { rules: null }],
  ['rules.misere null', 'rules', () => damaged((d) => { d.rules.misere = null; }), { rules: null }],
  ['a normal book for a misère player', 'rules', () => bookText, { rules: MISERE }],
  ['a misère book for a normal player', 'rules', () => misereText, { rules: { rows: 3, cols: 3, k: 3 } }],
  ['a misère book for a player who says misere: false', 'rules', () => misereText, { rules: { ...MISERE, misere: false } }],
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
  ['a key with two X more than O', 'entry-key', () => damaged((d) => { addEntry(d, 'XX.......', '0 4'); })],
  ['a finished key', 'entry-key', () => damaged((d) => { addEntry(d, 'XXXOO....', '0 4'); })],
  ['a full key', 'entry-key', () => damaged((d) => { addEntry(d, 'XOXXOOOXX', '0 4'); })],
  ['a key of 8 cells', 'entry-key', () => damaged((d) => { addEntry(d, '.......X', '0 4'); })],
  // Written as text: on an ordinary object, d.entries.__proto__ = ... would set the prototype.
  ['a key named __proto__', 'entry-key', () => edited('"entries":627', '"entries":628', edited('"entries":{', '"entries":{"__proto__":"0 4",'))],
  // Step 13, the entry grammar: "<best> <tier> <tier> ...", one space before each tier.
  ['an entry that is a number', 'entry-shape', () => withEntry('........X', 0)],
  ['an entry that is null', 'entry-shape', () => withEntry('........X', null)],
  ['an entry that is true', 'entry-shape', () => withEntry('........X', true)],
  ['an entry that is a list', 'entry-shape', () => withEntry('........X', [0, [4]])],
  ['an entry in the version-1 form (an object)', 'entry-shape', () => withEntry('........X', {
    plies: 8, scores: [-4, -4, -4, -4, 0, -4, -4, -4, null], tiers: [[4]], turn: 'O', value: 0,
  })],
  ['an empty entry string', 'entry-shape', () => withEntry('........X', '')],
  ['no tiers', 'entry-shape', () => withEntry('........X', '0')],
  ['a leading space', 'entry-shape', () => withEntry('........X', ' 0 4')],
  ['a trailing space', 'entry-shape', () => withEntry('........X', '0 4 ')],
  ['two spaces (an empty tier)', 'entry-shape', () => withEntry('........X', '0  4')],
  ['an empty tier at the end after a comma', 'entry-shape', () => withEntry('........X', '0 4,')],
  ['a comma starting a tier', 'entry-shape', () => withEntry('........X', '0 ,4')],
  ['a comma after the best score', 'entry-shape', () => withEntry('........X', '0,4')],
  ['a tab for a space (escaped)', 'entry-shape', () => withEntry('........X', '0\t4')],
  ['a space after a comma', 'entry-shape', () => withEntry('.........', '0 0, 2,6,8 1,3,5,7 4')],
  ['best "+0"', 'entry-shape', () => withEntry('........X', '+0 4')],
  ['best "00" (a leading zero)', 'entry-shape', () => withEntry('........X', '00 4')],
  ['best "-05" (a leading zero)', 'entry-shape', () => withEntry('.......OX', '-05 2,4,5')],
  ['best "-" alone', 'entry-shape', () => withEntry('........X', '- 4')],
  ['best "0.0"', 'entry-shape', () => withEntry('........X', '0.0 4')],
  ['best 2^53', 'entry-shape', () => withEntry('........X', '9007199254740992 4')],
  ['best -2^53', 'entry-shape', () => withEntry('........X', '-9007199254740992 4')],
  ['best of 400 digits', 'entry-shape', () => withEntry('........X', `${'9'.repeat(400)} 4`)],
  ['cell "04" (a leading zero)', 'entry-shape', () => withEntry('........X', '0 04')],
  ['cell 9 on a 9-cell board', 'entry-shape', () => withEntry('........X', '0 4,9')],
  ['cell 99', 'entry-shape', () => withEntry('........X', '0 4 99')],
  ['a negative cell', 'entry-shape', () => withEntry('........X', '0 4 -1')],
  ['a tier not in increasing order', 'entry-shape', () => withEntry('.........', '0 2,0,6,8 1,3,5,7 4')],
  ['a cell twice in one tier (not increasing)', 'entry-shape', () => withEntry('........X', '0 4,4')],
  ['a letter in a tier', 'entry-shape', () => withEntry('........X', '0 4x')],
  ['a non-ASCII digit', 'entry-shape', () => withEntry('........X', '0 \u0664')],
  ['a missing entry (counts adjusted)', 'missing-entry', () => damaged((d) => { removeEntry(d, '....X....'); })],
  ['no empty board (counts adjusted)', 'missing-entry', () => damaged((d) => { removeEntry(d, '.........'); })],
  // Step 15. The first: every cell but the centre said to draw, in one tier: well-formed, and
  // the best score 0 is right, but those moves lose (-4), as their successors say.
  ['........X: the non-centre cells as the optimal moves', 'entry-inconsistent', () => withEntry('........X', '0 0,1,2,3,5,6,7')],
  ['a best score the moves do not give (a loss for a draw)', 'entry-inconsistent', () => withEntry('........X', '-4 4')],
  ['a win claimed for the empty board (a draw)', 'entry-inconsistent', () => withEntry('.........', '1 0,2,6,8 1,3,5,7 4')],
  ['a win in 3 claimed for a win in 5', 'entry-inconsistent', () => withEntry('.......OX', '7 2,4,5')],
  ['a tier holding a non-optimal move', 'entry-inconsistent', () => withEntry('........X', '0 4 0')],
  ['a cell in two tiers', 'entry-inconsistent', () => withEntry('........X', '0 4 4')],
  ['a tier holding an occupied cell', 'entry-inconsistent', () => withEntry('........X', '0 4 8')],
  ['tiers leaving out an optimal move', 'entry-inconsistent', () => withEntry('.........', '0 0,2,6,8 1,3,5,7')],
  ['a best score no move can have, on a successor', 'entry-inconsistent', () => withEntry('.......OX', '1000 2,4,5')],
  ['a best score of 2^53 - 1', 'entry-inconsistent', () => withEntry('........X', '9007199254740991 4')],
  ['the score of a loss in 1 ply (no loss is that quick in normal play)', 'entry-inconsistent', () => withEntry('.......OX', '-9 2,4,5')],
  ['a normal book that says it is misère', 'entry-inconsistent', () => damaged((d) => { d.rules.misere = true; }), { rules: MISERE }],
  ['a misère book that says it is normal', 'entry-inconsistent', () => damaged((d) => { d.rules.misere = false; }, misereText)],
  // A parsed object (JSON.parse's, or `import ... with { type: 'json' }`) is proven as its text would be.
  ['a parsed object with a non-optimal move in its tiers', 'entry-inconsistent', () => { const d = realDoc(); d.entries['........X'] = '0 4 0'; return d; }],
  ['a parsed object without an entry', 'missing-entry', () => { const d = realDoc(); removeEntry(d, '........X'); return d; }],
  ['a parsed object of another format', 'format', () => ({ ...realDoc(), format: 'chess-book' })],
  ['a parsed object holding a fraction in an unknown member', 'json', () => ({ ...realDoc(), zz: 1.5 })],
  ['a parsed object holding an integer beyond 2^53 - 1', 'json', () => ({ ...realDoc(), zz: 2 ** 53 })],
  ['a parsed object holding a BigInt', 'json', () => ({ ...realDoc(), zz: 1n })],
  ['a parsed object 33 deep in an unknown member', 'json', () => ({ ...realDoc(), zz: JSON.parse(`${'['.repeat(32)}${']'.repeat(32)}`) })],
  ['a parsed object that holds itself', 'json', () => { const d = realDoc(); d.zz = { again: d, and: d }; return d; }],
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
  const text = withEntry('........X', '0 4 0');
  assert.throws(() => loadBook(text, { source: 'x.json' }), /^BookError: x\.json: has entry \.\.\.\.\.\.\.\.X, which has cell 0 in its tiers, whose derived score is -4, not 0/);
  assert.throws(() => loadBook(bookText.slice(0, 4000), { source: 'x.json' }), /^BookError: x\.json: is not valid JSON: .* \[json\]$/);
  assert.throws(() => loadBook(bookText, { rules: { rows: 3, cols: 4, k: 3 } }), /not 3x4 k=3/);
  assert.throws(() => loadBook(bookText, { rules: MISERE }), /is a book for 3x3 k=3, not 3x3 k=3 misère/);
  assert.throws(() => loadBook(withEntry('........X', '0 4,9')), /entry \.{8}X, which has cell 9 in a tier; the board's cells are 0 to 8 \[entry-shape\]/);
  assert.throws(() => loadBook(withEntry('.......OX', '1000 2,4,5')), /entry \.{7}OX, which has best score 1000; no move scores more than 9/);
  assert.throws(() => loadBook(damaged((d) => { removeEntry(d, '....X....'); })), /leads to ....X...., but no entry ....X.... \[missing-entry\]/);
});

/** The 8 images of a 3x3 board, by rotating and mirroring (typed out, not the reader's tables). */
function orientations(board) {
  const rotate = (b) => [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => b[(2 - c) * 3 + r])).join('');
  const mirror = (b) => [0, 1, 2].flatMap((r) => [0, 1, 2].map((c) => b[r * 3 + 2 - c])).join('');
  const images = [];
  for (let i = 0, b = board; i < 4; i++, b = rotate(b)) images.push(b, mirror(b));
  return images;
}

// Finished keys in canonical form, each holding the entry its moves would make it, so that only
// the finished-key check refuses them ('XXXOO....' above is not canonical, which refuses it too):
// . O O                      . . O
// X O O   X's bottom row     X X O   O's right column     O X X
// X X X   X to move: 0       X X O   O to move: 0 or 1    X O O   full, no line
//                                                         X O X
test('a finished key in canonical form is refused as finished, a line of X or of O, or full', () => {
  for (const [key, entry, owner, why] of [
    ['.OOXOOXXX', '9 0', 'X', 'a line is full'],
    ['..OXXOXXO', '9 0,1', 'O', 'a line is full'],
    ['OXXXOOXOX', '0 4', null, 'the board is full'],
  ]) {
    assert.equal(key, orientations(key).sort()[0], `${key} is canonical ('.' < 'O' < 'X')`);
    assert.equal(won(key, 'X') ? 'X' : won(key, 'O') ? 'O' : null, owner, key);
    if (owner === null) assert.ok(!key.includes('.'), key);
    const text = damaged((d) => { addEntry(d, key, entry); });
    assertRefused(text, 'entry-key', undefined, key);
    assert.throws(() => loadBook(text), { message: `book: has entry key "${key}", which is finished: ${why} [entry-key]` });
  }
});

test('a version-1 book is refused with version (and its entries are no version-2 entries)', () => {
  // The shipped book written as version 1 was: an object per entry, every move's score stored.
  const v1 = realDoc();
  v1.version = 1;
  delete v1.rules.misere;
  for (const key of Object.keys(v1.entries)) {
    const e = book.evaluate(key);
    v1.entries[key] = { plies: e.plies, scores: e.scores, tiers: e.tiers, turn: e.turn, value: e.value };
  }
  assertRefused(JSON.stringify(v1), 'version');
  assert.throws(() => loadBook(JSON.stringify(v1)), /has format version 1; this reader reads version 2 only/);
  assertRefused(JSON.stringify({ ...v1, version: 2 }), 'rules'); // no rules.misere
  assertRefused(JSON.stringify({ ...v1, version: 2, rules: { ...v1.rules, misere: false } }), 'entry-shape');
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
    d.entries['.........'] = 0;
    addEntry(d, 'XXXXXXXXX', '0 4');
  });
  // A consistency fault in the first entry, a missing entry found later.
  const missingLast = damaged((d) => {
    d.entries['.........'] = '1 4';
    removeEntry(d, '....X....');
  });
  // A best score out of range (found through its parents, early) and a missing entry.
  const rangeThenMissing = damaged((d) => {
    d.entries['.......OX'] = '1000 2,4,5';
    removeEntry(d, '....X....');
  });
  for (const [text, code] of [[keyLast, 'entry-key'], [missingLast, 'missing-entry'], [rangeThenMissing, 'missing-entry']]) {
    assertRefused(text, code);
    assertRefused(reversedKeys(JSON.parse(text)), code);
  }
});

test('of two misshapen entries, the message names the first in the file, whichever order the file has', () => {
  // ......... has fewer marks than .......OX, which has fewer than ....X....; in the book's own
  // order (sorted keys) each pair's emptier board comes first in one and last in the other.
  for (const [first, later] of [['.........', '.......OX'], ['.......OX', '....X....']]) {
    const doc = realDoc();
    const keys = Object.keys(doc.entries);
    assert.ok(keys.indexOf(first) < keys.indexOf(later));
    doc.entries[first] = null;
    doc.entries[later] = null;
    for (const [text, named] of [[JSON.stringify(doc), first], [reversedKeys(doc), later]]) {
      assert.throws(() => loadBook(text), (error) => {
        assert.equal(error.code, 'entry-shape');
        assert.match(error.message, new RegExp(`^book: has entry ${named.replace(/\./g, '\\.')}, `));
        return true;
      });
    }
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
  ['the object JSON.parse made of it (as `import ... with { type: \'json\' }` gives)', () => JSON.parse(bookText)],
  ['re-indented', () => JSON.stringify(JSON.parse(bookText), null, 2)],
  ['keys in reverse order', () => reversedKeys(JSON.parse(bookText))],
  ['unknown members at the top level, in rules, in a symmetry, in counts', () => damaged((d) => {
    d.comment = 'made by hand';
    d.rules.note = { any: [1, 'value'] };
    d.symmetries[2].alias = 'flip';
    d.counts.why = null;
  })],
  ['a checksum member (old books)', () => damaged((d) => { d.checksum = 'crc32:7ac2990c'; })],
  ['no trap_order and no trap_rates (informational)', () => damaged((d) => { delete d.trap_order; delete d.trap_rates; })],
  ['an unknown __proto__ member', () => withMember('"__proto__":{"format":"other","entries":{}}')],
  ['integers of 2^53 - 1 in an unknown member', () => withMember('"zz":[9007199254740991,-9007199254740991]')],
  ['a surrogate pair, escaped and raw', () => withMember('"zz":"\\ud83d\\ude00 \ud83d\ude00"')],
  ['nesting exactly 32 deep', () => withMember(`"zz":${'['.repeat(31)}${']'.repeat(31)}`)],
  ['an entry key and an entry written with escapes', () => edited('"........X":"0 4"', '"\\u002e.......X":"\\u0030 4"')],
  ['best "-0" (an RFC 8259 integer: 0)', () => withEntry('........X', '-0 4')],
  ['exactly 4,000,000 of [ { ,', () => withMember(`"zz":"${','.repeat(MAX_MARKS - marks(bookText) - 1)}"`)],
  ['exactly 64 MiB', () => bookText + ' '.repeat(MAX_BYTES - bookText.length)],
];

for (const [name, make] of LOADS) {
  test(`loads: ${name}`, () => {
    const input = make();
    if (name.startsWith('exactly 4,000,000')) assert.equal(marks(input), MAX_MARKS);
    assert.deepEqual(answers(loadBook(input)), REAL);
  });
}

// Trap order is not part of validity: other tiers over the same optimal moves load, with the
// same facts and their own tiers.
for (const [name, entry] of [['the empty board\'s tiers merged', '0 0,1,2,3,4,5,6,7,8'], ['the empty board\'s tiers reordered', '0 4 1,3,5,7 0,2,6,8']]) {
  test(`loads: ${name}`, () => {
    const reader = loadBook(withEntry('.........', entry));
    assert.deepEqual(answers(reader, { proven: true }), REAL_PROVEN);
    assert.deepEqual(reader.evaluate('.........').tiers, entry.split(' ').slice(1).map((t) => t.split(',').map(Number)));
  });
}

// ---------------------------------------------------------------- an independent solver

/** What the solver says of every canonical position. */
function solverFacts(rules) {
  return [...solution(rules).solved].map(([key, { value, plies }]) => [key, value, plies]).sort();
}
/** What a reader says of the same positions. */
const readerFacts = (reader, keys) => keys.map((key) => {
  const e = reader.evaluate(key);
  return [e.key, e.value, e.plies];
});

test('the shipped book agrees with the independent solver on every position', () => {
  const facts = solverFacts({ rows: 3, cols: 3, k: 3 });
  assert.equal(facts.length, 627);
  assert.deepEqual(readerFacts(book, facts.map(([key]) => key)), facts);
  // and on every move: the solver's book (one tier per optimal move) proves, with the same scores
  const solver = loadBook(makeBook({ rows: 3, cols: 3, k: 3 }, solution({ rows: 3, cols: 3, k: 3 })));
  for (const board of POSITIONS) {
    assert.deepEqual(solver.evaluate(board).scores, book.evaluate(board).scores, board);
    assert.deepEqual(solver.evaluate(board).optimal, book.evaluate(board).optimal, board);
  }
});

test('misère 3x3: a draw, and the centre is the only first move that does not lose', () => {
  const misere = loadBook(misereText, { rules: MISERE });
  assert.equal(misere.rules.misere, true);
  assert.equal(book.rules.misere, false);
  const empty = misere.evaluate('.........');
  assert.equal(empty.valueWord, 'draw');
  assert.deepEqual(empty.optimal, [4]);
  for (let c = 0; c < 9; c++) if (c !== 4) assert.equal(empty.outcome(c).value, -1, `cell ${c}`);
  // X X .
  // O O .      X to move: cell 2 completes X's row, which loses at once under misère (-9)
  // . . .
  const row = misere.evaluate('XX.OO....');
  assert.equal(row.scores[2], -9);
  assert.deepEqual(row.outcome(2), { value: -1, plies: 1 });
  assert.ok(!row.optimal.includes(2));
  assert.throws(() => misere.evaluate('XXXOO....'), (e) => e.code === 'over' && /X has lost \(misère\)/.test(e.message));
  // every position as the solver says, and a misère scores' range: [-N, N - 1]
  const facts = solverFacts(MISERE);
  assert.deepEqual(readerFacts(misere, facts.map(([key]) => key)), facts);
  for (const [key] of facts) for (const s of misere.evaluate(key).scores) assert.ok(s === null || (s >= -9 && s <= 8), key);
});

// Boards other than 3x3, solved by make-v2-book.mjs and proven by the reader, each position as
// the solver says. 3x4 (20,088 entries) is the largest the tests build, once each way up.
const SIZES = [
  [1, 1, 1, false], [1, 1, 1, true], [1, 3, 2, false], [1, 3, 2, true], [2, 2, 2, false], [2, 2, 2, true],
  [2, 4, 3, false], [2, 4, 3, true], [4, 3, 3, true], [3, 4, 3, false],
  [2, 4, 4, false], [4, 2, 4, true], // k the longer side, longer than the shorter: a game (issue 41, item 14)
];
for (const [rows, cols, k, misere] of SIZES) {
  const rules = { rows, cols, k, misere };
  test(`${rows}x${cols} k=${k}${misere ? ' misère' : ''}: the solver's book proves and answers as the solver says`, () => {
    const reader = loadBook(makeBook(rules, solution(rules)), { rules });
    assert.deepEqual(reader.rules, { ...reader.rules, rows, cols, k, misere, cells: rows * cols });
    const facts = solverFacts(rules);
    assert.deepEqual(readerFacts(reader, facts.map(([key]) => key)), facts);
  });
}

test('Position, the caller\'s rules and a book\'s rules accept the same games, those Python\'s Rules accepts', () => {
  // issue 41, item 14: three checks of rules could drift apart (a JavaScript Position refusing
  // 3x4 with k = 4, which Python plays, went unseen). Python's rule (tictactoe_book.game.Rules):
  // at most 20 cells, and k no longer than the longer side; a whole-file book's header
  // (tictactoe_book.book_format, step 7) at most 16 cells, a book by parts' manifest 20.
  const python = (rows, cols, k) => rows * cols <= 20 && k <= Math.max(rows, cols);
  const header = (rows, cols, k, version) => JSON.stringify({
    format: 'tictactoe-book', version, canonical: 'min-image',
    rules: { rows, cols, k, cells: rows * cols, misere: false, first: 'X', second: 'O', empty: '.', lines: [] },
  });
  // a header past step 7 fails at step 8 (no lines), one refused at 7 with 'rules'
  const passesStep7 = (load) => {
    try {
      load();
    } catch (error) {
      return error.code !== 'rules';
    }
    return true;
  };
  let games = 0;
  for (let rows = 1; rows <= 21; rows++) {
    for (let cols = 1; cols <= 21; cols++) {
      for (let k = 1; k <= 22; k++) {
        const rules = { rows, cols, k };
        const expected = python(rows, cols, k);
        const name = `${rows}x${cols} k=${k}`;
        let position = true;
        try {
          Position.empty(rules);
        } catch (error) {
          assert.ok(error instanceof RulesError, name);
          position = false;
        }
        let caller = true; // a book for another game is refused with 'rules'; rules of no game throw RulesError
        try {
          loadBook(bookBytes, { rules });
        } catch (error) {
          caller = error instanceof BookError;
          assert.ok(caller || error instanceof RulesError, name);
        }
        const book = passesStep7(() => loadBook(header(rows, cols, k, 2)));
        const parts = passesStep7(() => loadPartsBook(header(rows, cols, k, 3), { readPart: () => null }));
        const whole = expected && rows * cols <= 16;
        assert.deepEqual([position, caller, book, parts], [expected, expected, whole, expected], name);
        games += expected;
      }
    }
  }
  assert.ok(games > 300, `${games}`);
  // 3x4, four in a row: the top row completed by X wins; three in a row do not
  // X X X X
  // O O O .
  // . . . .
  let game = Position.empty({ rows: 3, cols: 4, k: 4 });
  for (const cell of [0, 4, 1, 5, 2, 6]) game = game.play(cell);
  assert.equal(game.outcome(), null);
  assert.deepEqual(game.play(3).outcome(), { winner: 'X', line: [0, 1, 2, 3], completedBy: 'X' });
  assert.throws(() => Position.empty({ rows: 3, cols: 4, k: 5 }), (e) => e instanceof RulesError && e.message === 'k=5 does not fit on a 3x4 board');
});

test('3x4: the empty board is a first-player win, and the book has the documented size', () => {
  const text = makeBook({ rows: 3, cols: 4, k: 3 }, solution({ rows: 3, cols: 4, k: 3, misere: false }));
  const reader = loadBook(text, { rules: { rows: 3, cols: 4, k: 3 } });
  assert.equal(JSON.parse(text).counts.entries, 20_088); // docs/book-format.md, "Rules of other sizes"
  assert.equal(reader.evaluate('............').valueWord, 'win');
  // damaged: one entry's best score changed is found in a book of this size too
  const doc = JSON.parse(text);
  const [key, entry] = Object.entries(doc.entries)[12_345];
  doc.entries[key] = entry.replace(/^-?\d+/, (b) => String(Number(b) + 1));
  assertRefused(JSON.stringify(doc), 'entry-inconsistent', { rules: null });
});

// On a board of more than 9 cells, text order and number order differ ('10' < '2'): the reader
// returns cells in number order. 3x4, k = 3, cells 0 to 11:
// . . . .                                 X . . O
// . . . .   X to move wins in 7 plies     . . . .   X to move wins in 5 plies
// . . . .   at 1, 2, 5, 6, 9 or 10        . . . .   at 1, 2, 4, 5, 8 or 10 (its key ........O..X
//                                                   turned over: the cells map to others)
// The solver's book writes each optimal move as a tier of its own; here they are merged into one
// tier too (trap order is not part of validity), so that a tier holds cells of one and two digits.
test('3x4: tiers, optimal moves and bestMoves in number order where cells reach 10 and 11', () => {
  const rules = { rows: 3, cols: 4, k: 3 };
  const text = makeBook(rules, solution(rules));
  const merged = JSON.parse(text);
  assert.deepEqual([merged.entries['............'], merged.entries['........O..X']], ['6 1 2 5 6 9 10', '8 1 3 6 7 9 10']);
  merged.entries['............'] = '6 1,2,5,6,9,10';
  merged.entries['........O..X'] = '8 1,3,6,7,9,10';
  const cases = [['............', '............', [1, 2, 5, 6, 9, 10]], ['X..O........', '........O..X', [1, 2, 4, 5, 8, 10]]];
  for (const [reader, oneTier] of [[loadBook(text, { rules }), false], [loadBook(JSON.stringify(merged), { rules }), true]]) {
    for (const [board, key, cells] of cases) {
      const e = reader.evaluate(board);
      assert.equal(e.key, key);
      // one tier of them all, or a tier each (in the key's cell order, mapped onto the board)
      if (oneTier) assert.deepEqual(e.tiers, [cells], board);
      else assert.ok(e.tiers.length === cells.length && e.tiers.every((tier) => tier.length === 1), board);
      assert.deepEqual(e.optimal, cells, board);
      assert.deepEqual(reader.optimalMoves(board), cells, board);
      // the top tier: all of them, or the key's first tier (cell 1) mapped onto the board; the
      // key of X..O........ is its image turned half a turn, where the key's cell 1 is the board's 10
      assert.deepEqual(reader.bestMoves(board), oneTier ? cells : [board === key ? 1 : 10], board);
    }
  }
});

// ---------------------------------------------------------------- the proven-book record

/** A Storage-like object (getItem, setItem) over a Map, counting the calls. */
function memoryStorage() {
  const items = new Map();
  return {
    items,
    getItem: (name) => (items.has(name) ? items.get(name) : null),
    setItem: (name, value) => { items.set(name, String(value)); },
  };
}

test('loadBookCached proves a book and records its SHA-256; the recorded bytes skip the proof', async () => {
  const storage = memoryStorage();
  const hash = createHash('sha256').update(bookBytes).digest('hex');
  assert.equal(await sha256Hex(bookBytes), hash);
  const first = await loadBookCached(bookBytes, { storage, recordAbove: 0 });
  assert.deepEqual([...storage.items.keys()], [PROVEN_PREFIX + hash]);
  assert.deepEqual(answers(first), REAL);
  const again = await loadBookCached(new Uint8Array(bookBytes).buffer, { storage, recordAbove: 0 });
  assert.deepEqual(answers(again), REAL); // moves' scores derived on demand: the same
  // The record, not the content, decides: a damaged book whose hash is recorded (by hand here)
  // loads without its proof, which shows the proof was skipped ...
  const bad = Buffer.from(withEntry('........X', '0 0,1,2,3,5,6,7'));
  storage.setItem(PROVEN_PREFIX + createHash('sha256').update(bad).digest('hex'), '1');
  await loadBookCached(bad, { storage });
  // ... and the same bytes with one byte changed are proven, and refused.
  const changed = Buffer.from(bad);
  changed[changed.indexOf('"0 0,1,2,3,5,6,7"') + 1] = '1'.charCodeAt(0); // best score 0 -> 1
  await assert.rejects(loadBookCached(changed, { storage }), (e) => e.code === 'entry-inconsistent');
  assert.equal(storage.items.size, 2, 'a refused book is not recorded');
});

test('loadBookCached: one changed byte of a recorded valid book is proven and refused', async () => {
  const storage = memoryStorage();
  await loadBookCached(bookBytes, { storage, recordAbove: 0 });
  const changed = Buffer.from(bookBytes);
  changed[changed.indexOf('"........X":"0 4"') + 15] = '5'.charCodeAt(0); // the optimal move 4 -> 5
  await assert.rejects(loadBookCached(changed, { storage, recordAbove: 0 }), (e) => e instanceof BookError && e.code === 'entry-inconsistent');
  assert.equal(storage.items.size, 1);
});

test('loadBookCached reads the bytes as they were when called: changed while it hashes, they are neither opened as proven nor recorded', async () => {
  // issue 41, item 7: the hash was awaited, then the caller's bytes (changed meanwhile) were
  // read. The entry of X in a corner, O to move: "0 4", only the centre holds the draw; "0 3"
  // (an edge, which loses) has the same length.
  // . . .
  // . . .
  // . . X
  const losing = Buffer.from(bookBytes);
  const at = losing.indexOf('"........X":"0 4"') + 15;
  losing[at] = '3'.charCodeAt(0);
  assert.throws(() => loadBook(losing), (e) => e.code === 'entry-inconsistent');
  // Recorded bytes, changed as soon as the call returns: the recorded snapshot is what is read.
  const storage = memoryStorage();
  await loadBookCached(bookBytes, { storage, recordAbove: 0 });
  const caller = Buffer.from(bookBytes);
  const pending = loadBookCached(caller, { storage, recordAbove: 0 });
  caller[at] = '3'.charCodeAt(0);
  const reader = await pending;
  assert.deepEqual(reader.bestMoves('........X'), [4]);
  assert.deepEqual(answers(reader), REAL);
  // Damaged bytes, made valid as soon as the call returns: the damaged snapshot is proven and
  // refused, and its hash is not recorded (a later load of those bytes would skip the proof).
  const fresh = memoryStorage();
  const damagedCaller = Buffer.from(losing);
  const refused = loadBookCached(damagedCaller, { storage: fresh, recordAbove: 0 });
  damagedCaller[at] = '4'.charCodeAt(0);
  await assert.rejects(refused, (e) => e instanceof BookError && e.code === 'entry-inconsistent');
  assert.equal(fresh.items.size, 0);
  await assert.rejects(loadBookCached(losing, { storage: fresh, recordAbove: 0 }), (e) => e.code === 'entry-inconsistent');
});

test('loadBookCached records a book larger than recordAbove (1,000,000 bytes by default), not one of exactly that size, as Python\'s RECORD_ABOVE', async () => {
  // issue 41, item 14: a book of exactly recordAbove bytes being recorded went unseen
  const padded = (length) => Buffer.concat([bookBytes, Buffer.alloc(length - bookBytes.length, 0x20)]); // trailing white space: valid
  for (const [bytes, options, recorded] of [
    [padded(1_000_000), {}, false],
    [padded(1_000_001), {}, true],
    [bookBytes, { recordAbove: bookBytes.length }, false],
    [bookBytes, { recordAbove: bookBytes.length - 1 }, true],
  ]) {
    const storage = memoryStorage();
    await loadBookCached(bytes, { storage, ...options });
    assert.equal(storage.items.size, recorded ? 1 : 0, `${bytes.length} bytes, ${JSON.stringify(options)}`);
  }
});

test('loadBookCached: a record does not change the rules a player accepts, nor what refuses before the proof', async () => {
  const storage = memoryStorage();
  await loadBookCached(bookBytes, { storage, recordAbove: 0 });
  await assert.rejects(loadBookCached(bookBytes, { storage, rules: MISERE }), (e) => e.code === 'rules');
  await assert.rejects(loadBookCached(bookBytes, { storage, rules: { rows: 3, cols: 4, k: 3 } }), (e) => e.code === 'rules');
  const reader = await loadBookCached(bookBytes, { storage, rules: null, source: 'cached.json' });
  assert.equal(reader.rules.k, 3);
});

test('loadBookCached: small books are not recorded by default; text is proven, never recorded; a failing storage only loses the record', async () => {
  const storage = memoryStorage();
  await loadBookCached(bookBytes, { storage });
  assert.equal(storage.items.size, 0, 'the 3x3 book is not larger than 1 MB');
  await loadBookCached(bookText, { storage, recordAbove: 0 });
  assert.equal(storage.items.size, 0);
  await assert.rejects(loadBookCached(withEntry('........X', '0 4 0'), { storage, recordAbove: 0 }), (e) => e.code === 'entry-inconsistent');
  const broken = { getItem() { throw new Error('SecurityError'); }, setItem() { throw new Error('QuotaExceededError'); } };
  assert.deepEqual(answers(await loadBookCached(bookBytes, { storage: broken, recordAbove: 0 })), REAL);
  assert.deepEqual(answers(await loadBookCached(bookBytes)), REAL); // no storage: proven
});

// ---------------------------------------------------------------- reading a book from a response

/**
 * A body of `total` bytes (Infinity: endless) in parts of `part` bytes, made as they are pulled
 * (highWaterMark 0: none before a read asks), counting what was made and whether it was cancelled.
 */
function fakeBody(total, part = 1 << 20) {
  const made = { bytes: 0, cancelled: false };
  const stream = new ReadableStream({
    pull(controller) {
      const size = Math.min(part, total - made.bytes);
      if (size <= 0) {
        controller.close();
        return;
      }
      made.bytes += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
    cancel() {
      made.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, made };
}

test('readBookResponse stops reading a body at 64 MiB and cancels it: an endless one, or one longer than its Content-Length says', async () => {
  // issue 41, item 9: the page read any size before its 64 MiB check (a 300 MB stream: 1.3 GB held)
  assert.equal(MAX_BOOK_BYTES, MAX_BYTES);
  for (const headers of [{}, { 'Content-Length': '1000' }, { 'Content-Length': String(MAX_BOOK_BYTES + 1), 'Content-Encoding': 'gzip' }]) {
    const { stream, made } = fakeBody(Infinity);
    await assert.rejects(readBookResponse(new Response(stream, { headers }), { source: 'endless.json' }), (e) => e instanceof BookError
      && e.code === 'limits' && e.message === `endless.json: is more than ${MAX_BYTES} bytes long (reading stopped there); a book is at most ${MAX_BYTES} bytes [limits]`);
    assert.ok(made.bytes <= MAX_BOOK_BYTES + (1 << 20), `${made.bytes} bytes made`);
    assert.ok(made.cancelled, JSON.stringify(headers));
  }
});

test('readBookResponse refuses a Content-Length over 64 MiB before reading a byte', async () => {
  const { stream, made } = fakeBody(300_000_000);
  const response = new Response(stream, { headers: { 'Content-Length': '300000000' } });
  await assert.rejects(readBookResponse(response), (e) => e instanceof BookError && e.code === 'limits'
    && e.message === `book: is 300000000 bytes long (its Content-Length); a book is at most ${MAX_BYTES} bytes [limits]`);
  assert.deepEqual(made, { bytes: 0, cancelled: true });
});

test('readBookResponse reads a body of exactly 64 MiB whole, and the book in parts as it was sent', async () => {
  const { stream, made } = fakeBody(MAX_BOOK_BYTES, 3_000_001);
  const bytes = await readBookResponse(new Response(stream, { headers: { 'Content-Length': String(MAX_BOOK_BYTES) } }));
  assert.equal(bytes.length, MAX_BOOK_BYTES);
  assert.ok(!made.cancelled && bytes.every((b) => b === 0x20));
  const parts = [];
  for (let at = 0; at < bookBytes.length; at += 1000) parts.push(bookBytes.subarray(at, at + 1000));
  const seen = [];
  const sent = new ReadableStream({ pull: (controller) => (parts.length ? controller.enqueue(parts.shift()) : controller.close()) });
  const read = await readBookResponse(new Response(sent, { headers: { 'Content-Length': String(bookBytes.length) } }), {
    progress: (received, total) => seen.push([received, total]),
  });
  assert.deepEqual(Buffer.from(read), bookBytes);
  assert.deepEqual(seen.at(-1), [bookBytes.length, bookBytes.length]);
  assert.deepEqual(answers(loadBook(read)), REAL);
  assert.equal((await readBookResponse(new Response(null))).length, 0);
});

test('readBookResponse: a body that fails as it is read is unreadable', async () => {
  let pulls = 0;
  const failing = new ReadableStream({
    pull(controller) {
      if (pulls++) controller.error(new TypeError('network error'));
      else controller.enqueue(new Uint8Array(10));
    },
  });
  await assert.rejects(readBookResponse(new Response(failing), { source: 'x.json' }), (e) => e instanceof BookError
    && e.code === 'unreadable' && e.message === 'x.json: cannot be read (network error) [unreadable]');
});

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

test('a level is a name of LEVELS, never one every object inherits (constructor, toString, __proto__)', () => {
  // issue 41, item 8: the levels were looked up through the prototype, so 'constructor' played
  // a random move
  const inherited = [...Object.getOwnPropertyNames(Object.prototype), 'hasOwnProperty', '__proto__'];
  assert.ok(inherited.includes('constructor') && inherited.includes('toString'));
  for (const level of inherited) {
    assert.throws(() => book.chooseMove('XX.O.....', { level, random: () => 0 }), /^RangeError: unknown level/, level);
    assert.throws(() => book.candidates(book.evaluate('XX.O.....'), level), /^RangeError: unknown level/, level);
  }
});

test('chooseMove is reproducible with an injected random and varies among ties', () => {
  const seen = new Set();
  for (let i = 0; i < 4; i++) seen.add(book.chooseMove('.........', { random: () => i / 4 }));
  assert.deepEqual([...seen].sort(), [0, 2, 6, 8]);
  assert.equal(book.chooseMove('OO.X.....', { first: 'O' }), 2);
});

test('chooseMove with a random() that is not a number from 0 up to 1 is a RangeError, never undefined', () => {
  // issue 32, item 9: a negative number, NaN or a non-number gave undefined for a move
  for (const drawn of [-0.5, -1e-9, 1, 1.5, NaN, Infinity, '0.5', null, undefined, 0n]) {
    assert.throws(() => book.chooseMove('.........', { random: () => drawn }), RangeError, String(drawn));
  }
  assert.throws(() => book.chooseMove('.........', { random: 0.5 }), TypeError);
  assert.equal(book.chooseMove('.........', { random: () => 0 }), 0);
  assert.equal(book.chooseMove('.........', { random: () => 1 - Number.EPSILON }), 8);
  assert.equal(book.chooseMove('XX.OO....', { random: () => NaN }), 2); // one move: random() is not asked
});

test('options given as null are no options, as Python\'s None; others are a TypeError', async () => {
  // issue 32, item 9: loadBook(bytes, null) threw a bare TypeError from destructuring null
  const answer = ({ scores, tiers, value, plies }) => ({ scores, tiers, value, plies });
  assert.deepEqual(answer(loadBook(bookBytes, null).evaluate('X........', null)), answer(book.evaluate('X........')));
  assert.equal(loadBook(bookBytes, null).chooseMove('XX.OO....', null), 2);
  assert.equal((await loadBookCached(bookBytes, null)).cells, 9);
  for (const options of [5, 'rules', [1], true]) {
    assert.throws(() => loadBook(bookBytes, options), /^TypeError: options must be an object/);
  }
  const { loadPackagedBook } = await import('./index.js');
  let loaded;
  try {
    loaded = await loadPackagedBook(null); // the default book, staged (npm pack) or not
  } catch (error) {
    assert.ok(error instanceof BookError && error.code === 'unreadable', String(error));
  }
  if (loaded) assert.equal(loaded.rules.misere, false);
  await assert.rejects(loadPackagedBook(7), /^TypeError: options must be/);
});

test('the caller\'s rules are checked as Python\'s Rules checks them: a clear TypeError naming the member', () => {
  // issue 32, item 9: misere 'no' was taken as misère; rows '3' said "a book for 3x3 k=3, not 3x3 k=3"
  const cases = [
    [{ rows: 3, cols: 3, k: 3, misere: 'no' }, /^TypeError: rules\.misere must be true or false, got "no"$/],
    [{ rows: '3', cols: 3, k: 3 }, /^TypeError: rules\.rows must be a positive integer, got "3"$/],
    [{ rows: 3, cols: 3.5, k: 3 }, /^TypeError: rules\.cols must be a positive integer, got 3\.5$/],
    [{ rows: 3, cols: 3 }, /^TypeError: rules\.k must be a positive integer, got nothing$/],
    ['3x3', /^TypeError: rules must be \{rows, cols, k, misere\} or null, got "3x3"$/],
  ];
  for (const [rules, message] of cases) assert.throws(() => loadBook(bookBytes, { rules }), message, JSON.stringify(rules));
  // Rules of no game are the caller's mistake, as a Position's are (RulesError), not the book's.
  assert.throws(() => loadBook(bookBytes, { rules: { rows: 5, cols: 5, k: 3 } }), (e) => e instanceof RulesError && e.message === 'board 5x5 has 25 cells; at most 20');
  // 5x4 is a game (a book by parts holds it), so a 3x3 book is the wrong book for it
  assert.throws(() => loadBook(bookBytes, { rules: { rows: 5, cols: 4, k: 3 } }), (e) => e instanceof BookError && e.message.endsWith('is a book for 3x3 k=3, not 5x4 k=3 [rules]'));
  assert.throws(() => loadBook(bookBytes, { rules: { rows: 3, cols: 3, k: 4 } }), (e) => e instanceof RulesError && e.message === 'k=4 does not fit on a 3x3 board');
  assert.throws(() => loadBook(bookBytes, { rules: { rows: 3, cols: 3, k: 3, misere: true } }), /\[rules\]$/);
  assert.equal(loadBook(bookBytes, { rules: { rows: 3, cols: 3, k: 3, misere: false } }).rules.misere, false);
  assert.equal(loadBook(bookBytes, { rules: null }).cells, 9);
});

test('a message repeats a long value cut to 100 characters and its length, as Python\'s echoed', () => {
  assert.throws(() => book.evaluate('X'.repeat(100_000)), (error) => error instanceof BoardError && error.code === 'length'
    && error.message === `board "${'X'.repeat(100)}"... (100,000 characters) has 100000 cells; the book needs 9`);
  assert.throws(() => book.chooseMove('.........', { level: 'z'.repeat(5000) }), /^RangeError: unknown level "z{100}"\.\.\. \(5,000 characters\)/);
  assert.throws(() => loadBook(damaged((d) => { d.format = 'f'.repeat(1000); })), /format "f{100}"\.\.\. \(1,000 characters\)\) \[format\]$/);
});

test('a message names the book by its source cut to 4,096 characters and its length, as Python\'s BookError names a path', () => {
  // issue 41, item 13: a source of a million characters made a message of a million characters
  const refusal = (source) => {
    try {
      loadBook('[]', { source });
    } catch (error) {
      assert.ok(error instanceof BookError && error.code === 'format', String(error));
      return error.message;
    }
    return assert.fail('loaded');
  };
  const tail = ': is not a book: its top level is [], not an object [format]';
  assert.equal(refusal('b'.repeat(1_000_000)), `${'b'.repeat(4096)}... (1,000,000 characters)${tail}`);
  assert.equal(refusal('b'.repeat(4096)), `${'b'.repeat(4096)}${tail}`);
  assert.equal(refusal('b'.repeat(4097)), `${'b'.repeat(4096)}... (4,097 characters)${tail}`);
  assert.equal(refusal('😀'.repeat(4097)), `${'😀'.repeat(4096)}... (4,097 characters)${tail}`); // code points, as Python counts
  assert.equal(refusal(7), `7${tail}`);
  assert.equal(refusal(undefined), `book${tail}`);
  const position = new Position('O........', undefined, 'O');
  assert.throws(() => book.evaluate(position, { first: 'X'.repeat(5000) }), /^TypeError: first "X{100}"\.\.\. \(5,000 characters\) is not the position's/);
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
