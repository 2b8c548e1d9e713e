// Run with `node --test clients/js/`. The reader of books by parts (docs/book-parts.md, format
// version 3): loadPartsBook with an injected readPart, openPartsBook from files (node.js) and
// fetchPartsBook over a fake fetch (the browser's way) answer every position as the version-2
// book they were cut from (loadBook's answers are the expected values), read only the parts an
// answer needs, hold a bounded number of them, and refuse damaged books with the documented
// codes: the parts vectors (book/parts-vectors.json, through check-parts-vectors.mjs), which
// tests/test_parts_vectors.py runs against the Python readers too. The folders are cut by
// make-parts.mjs (a test-only writer; tests/test_parts_js.py checks it against `ttt-book split`,
// and runs this reader on `ttt-book split`'s own folders).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { openPartsBook } from './node.js';
import * as browserEntry from './index.js';
import {
  BookError, PARTS_REASON_CODES, PARTS_VERSION, Position, REASON_CODES, RulesError, fetchPartsBook, loadBook, loadPartsBook,
} from './tictactoe-book.js';
import { makeBook, solve } from './make-v2-book.mjs';
import { splitBook, writeFolder } from './make-parts.mjs';
import { checkPartsVectors, fetchFolder } from './check-parts-vectors.mjs';

const root = new URL('../../', import.meta.url);
const BOOKS = ['tictactoe.json', 'tictactoe-misere.json', 'tictactoe-vs-random.json', 'tictactoe-misere-vs-random.json'];
const textOf = (name) => readFileSync(new URL(`book/${name}`, root), 'utf8');
const vectors = JSON.parse(readFileSync(new URL('book/vectors.json', root), 'utf8'));

/**
 * A reader of the book by parts in `files` (splitBook's), its parts read from the Map; `read`
 * records the names asked. With `fast`, hashed and inflated by node:crypto and node:zlib at once
 * (for the tests that read hundreds of parts) instead of the defaults, Web Crypto's and
 * DecompressionStream's, which the other tests use.
 */
function fromFiles(files, { fast = false, ...options } = {}) {
  const read = [];
  const quick = { sha256: (bytes) => createHash('sha256').update(bytes).digest('hex'), inflate: (bytes) => inflateSync(bytes) };
  const book = loadPartsBook(files.get('manifest.json'), {
    ...(fast ? quick : {}),
    ...options,
    readPart: (file) => {
      read.push(file);
      if (!files.has(file)) throw new Error(`no file ${file}`);
      return files.get(file);
    },
  });
  return { book, read };
}

/** What an answer says, every member but the outcome function, and each legal cell's outcome. */
function facts(evaluation) {
  const { outcome, ...rest } = evaluation;
  const outcomes = evaluation.scores.map((s, cell) => (s === null ? null : outcome(cell)));
  return { ...rest, outcomes };
}

/** `key` turned by the n-th of `perms` (image[i] = key[perm[i]], n taken modulo their number): a board that is not canonical. */
const turned = (key, perms, n) => perms[n % perms.length].map((cell) => key[cell]).join('');

/** A temporary folder for the test, removed after it. */
function folderFor(t) {
  const folder = mkdtempSync(join(tmpdir(), 'parts-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

// ---------------------------------------------------------------- the same answers

for (const name of BOOKS) {
  test(`${name} by parts: every canonical position, as it is and turned, and every vector board answers as the version-2 book`, async () => {
    const text = textOf(name);
    const whole = loadBook(text);
    const doc = JSON.parse(text);
    const { book } = fromFiles(splitBook(doc));
    assert.deepEqual([book.rules, book.against, book.cells, book.perms], [whole.rules, whole.against, whole.cells, whole.perms]);
    for (const [n, key] of Object.keys(doc.entries).entries()) {
      for (const board of [key, turned(key, whole.perms, n)]) {
        assert.deepEqual(facts(await book.evaluate(board)), facts(whole.evaluate(board)), board);
      }
    }
    if (name !== 'tictactoe.json') return;
    for (const [i, { board, first }] of vectors.valid.entries()) {
      assert.deepEqual(facts(await book.evaluate(board, { first })), facts(whole.evaluate(board, { first })), board);
      if (i % 10) continue;
      assert.deepEqual(await book.bestMoves(board, { first }), whole.bestMoves(board, { first }));
      assert.deepEqual(await book.optimalMoves(board, { first }), whole.optimalMoves(board, { first }));
    }
  });
}

/** A 3x4 k=3 book from the independent solver (make-v2-book.mjs), its text and document, made once. */
const THREE_BY_FOUR = (() => {
  const rules = { rows: 3, cols: 4, k: 3 };
  const text = makeBook(rules, solve(rules));
  return { text, doc: JSON.parse(text) };
})();

/** The keys of `doc`'s entries by layer (marks), then in order: a game's order, which a reader's cache of parts suits. */
const byLayer = (doc) => Object.keys(doc.entries).sort((a, b) => b.split('.').length - a.split('.').length || (a < b ? -1 : 1));

test('3x4 k=3 by parts of at most 64 entries: every 4th canonical position, turned, answers as the version-2 book', async () => {
  const { text, doc } = THREE_BY_FOUR;
  const whole = loadBook(text);
  const files = splitBook(doc, { partEntries: 64 }); // many parts a layer: the search among them
  const { book } = fromFiles(files, { fast: true });
  assert.ok(book.parts.length > 300, book.parts.length);
  for (const [n, key] of byLayer(doc).filter((_, i) => i % 4 === 0).entries()) {
    const board = turned(key, whole.perms, n);
    assert.deepEqual(facts(await book.evaluate(board)), facts(whole.evaluate(board)), board);
  }
});

test('a Position, first O, the levels and chooseMove answer as the version-2 book; the reader checks boards as it does', async () => {
  const whole = loadBook(textOf('tictactoe.json'));
  const { book } = fromFiles(splitBook(JSON.parse(textOf('tictactoe.json'))));
  const position = new Position('O...X....', undefined, 'O');
  assert.deepEqual(facts(await book.evaluate(position)), facts(whole.evaluate(position)));
  for (const level of ['perfect', 'hard', 'medium', 'easy']) {
    for (const drawn of [0, 0.5, 0.999]) {
      const options = { level, random: () => drawn, first: 'O' };
      assert.equal(await book.chooseMove('O...X....', options), whole.chooseMove('O...X....', options), `${level} ${drawn}`);
    }
  }
  assert.deepEqual(book.winners('XXXOO....'), whole.winners('XXXOO....'));
  assert.deepEqual(book.canonical('X........'), whole.canonical('X........'));
  const refusal = (run) => run().then(() => null, (error) => [error.name, error.code]);
  for (const [board, options] of [['XX.......', {}], ['XXXOO....', {}], ['.........X', {}], ['....', {}], ['.........', { first: 'Z' }]]) {
    let expected;
    try {
      whole.evaluate(board, options);
    } catch (error) {
      expected = [error.name, error.code];
    }
    assert.deepEqual(await refusal(() => book.evaluate(board, options)), expected, board);
  }
  await assert.rejects(book.evaluate(new Position('.'.repeat(12), { rows: 3, cols: 4, k: 3 })), RulesError);
  await assert.rejects(book.chooseMove('.........', { level: 'expert' }), RangeError);
});

// ---------------------------------------------------------------- past 16 cells: 4x5

//  0  1  2  3  4
//  5  6  7  8  9     4x5, four in a row: 20 cells, more than a whole-file book may have (16)
// 10 11 12 13 14     but a book by parts may; its codes pass 2^31 (3^20 - 1)
// 15 16 17 18 19
const LINES_4X5 = [
  [0, 1, 2, 3], [1, 2, 3, 4], [5, 6, 7, 8], [6, 7, 8, 9], [10, 11, 12, 13], [11, 12, 13, 14], [15, 16, 17, 18], [16, 17, 18, 19],
  [0, 5, 10, 15], [1, 6, 11, 16], [2, 7, 12, 17], [3, 8, 13, 18], [4, 9, 14, 19],
  [0, 6, 12, 18], [1, 7, 13, 19],
  [3, 7, 11, 15], [4, 8, 12, 16],
];
/** 4x5's symmetries, written here from the board's cells, in the file's order: the identity, then left and right swapped, top and bottom, both. */
const SYMMETRIES_4X5 = [[false, false, 'identity'], [false, true, 'mirror left-right'], [true, false, 'mirror top-bottom'], [true, true, 'rotate 180']]
  .map(([rows, cols, name]) => ({ name, perm: [...Array(20).keys()].map((c) => (rows ? 3 - Math.floor(c / 5) : Math.floor(c / 5)) * 5 + (cols ? 4 - (c % 5) : c % 5)) }));

/** The canonical key of `board` by brute force: its smallest image (image[i] = board[perm[i]]) as a string, and the first symmetry giving it. */
function minImage(board) {
  const images = SYMMETRIES_4X5.map(({ perm }) => perm.map((cell) => board[cell]).join(''));
  const key = images.reduce((least, image) => (image < least ? image : least));
  return { key, index: images.indexOf(key) };
}

/** A 4x5 k=4 version-2 document holding `entries` (more than step 7 of a whole book allows, so splitBook's only). */
const doc4x5 = (entries) => ({
  format: 'tictactoe-book',
  version: 2,
  canonical: 'min-image',
  rules: { rows: 4, cols: 5, k: 4, cells: 20, misere: false, first: 'X', second: 'O', empty: '.', lines: LINES_4X5 },
  symmetries: SYMMETRIES_4X5,
  counts: { entries: Object.keys(entries).length },
  entries,
});

// X X X . O
// X O X O O      X to move, two cells free. X at 3 completes the top row: a win at once
// X O X O X      (score 20). X at 19 completes nothing, and O's last move, at 3, completes
// O X O O .      column 3 (3, 8, 13, 18): a loss in 2 plies (score -19).
const TWO_LEFT = 'XXX.OXOXOOXOXOXOXOO.';
const AFTER_19 = 'XXX.OXOXOOXOXOXOXOOX'; // O to move at 3, completing column 3: 20

/** The two entries that answer TWO_LEFT, each under its canonical key (minImage) with its tier's cell turned to match. */
function twoLeftEntries() {
  const entries = {};
  for (const [board, best, cell] of [[TWO_LEFT, 20, 3], [AFTER_19, 20, 3]]) {
    const { key, index } = minImage(board);
    entries[key] = `${best} ${SYMMETRIES_4X5[index].perm.indexOf(cell)}`;
  }
  return entries;
}

test('a 4x5 manifest (20 cells) opens; its reader\'s canonical keys are the brute-force smallest images, along random games', () => {
  const files = splitBook(doc4x5(twoLeftEntries()));
  const { book, read } = fromFiles(files);
  assert.deepEqual([book.cells, book.rules.rows, book.rules.cols, book.perms.length], [20, 4, 5, 4]);
  assert.deepEqual(book.rules.lines, LINES_4X5);
  assert.deepEqual(book.perms, SYMMETRIES_4X5.map((s) => s.perm));
  // mulberry32, seeded: the same games each run
  let seed = 45;
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  let boards = 0;
  // boards with an image whose code passes 2^31 (X on its cell 0 alone is 2 * 3^19): in 32 bits
  // it would wrap to a negative number and pass for the smallest
  let high = 0;
  for (let game = 0; game < 200; game++) {
    let position = Position.empty({ rows: 4, cols: 5, k: 4 });
    while (!position.isOver) {
      const board = position.board;
      assert.deepEqual(book.canonical(board), minImage(board), board);
      const swapped = board.replace(/[XO]/g, (m) => (m === 'X' ? 'O' : 'X'));
      assert.deepEqual(book.canonical(swapped), minImage(swapped), swapped);
      boards++;
      if (SYMMETRIES_4X5.some(({ perm }) => board[perm[0]] === 'X')) high++;
      const moves = position.legalMoves();
      position = position.play(moves[Math.floor(random() * moves.length)]);
    }
  }
  assert.ok(boards > 2000 && high > 1000, `${boards} boards, ${high} with an image past 2^31`);
  assert.deepEqual(read, []); // the manifest alone
});

test('a 4x5 book by parts answers a position near the end as worked out by hand, in each orientation; a whole-file 4x5 book is refused at step 7', async () => {
  const entries = twoLeftEntries();
  const files = splitBook(doc4x5(entries));
  const { book, read } = fromFiles(files);
  for (const { perm } of SYMMETRIES_4X5) {
    const board = perm.map((cell) => TWO_LEFT[cell]).join(''); // TWO_LEFT turned: its cells 3 and 19 move with it
    const win = perm.indexOf(3);
    const loss = perm.indexOf(19);
    const answer = await book.evaluate(board);
    const scores = Array(20).fill(null);
    scores[win] = 20;
    scores[loss] = -19;
    assert.deepEqual([answer.value, answer.valueWord, answer.plies, answer.turn, answer.key], [1, 'win', 1, 'X', minImage(TWO_LEFT).key], board);
    assert.deepEqual([answer.scores, answer.tiers, answer.optimal], [scores, [[win]], [win]], board);
    assert.deepEqual([answer.outcome(win), answer.outcome(loss)], [{ value: 1, plies: 1 }, { value: -1, plies: 2 }], board);
    assert.deepEqual(await book.bestMoves(board), [win]);
  }
  // O's answer after X's mistake, and the same game with O moving first (the marks swapped)
  const after = await book.evaluate(AFTER_19);
  assert.deepEqual([after.value, after.plies, after.turn, after.tiers], [1, 1, 'O', [[3]]]);
  const swap = (board) => board.replace(/[XO]/g, (m) => (m === 'X' ? 'O' : 'X'));
  assert.deepEqual(facts(await book.evaluate(swap(TWO_LEFT), { first: 'O' })), { ...facts(await book.evaluate(TWO_LEFT)), board: swap(TWO_LEFT), first: 'O', turn: 'O' });
  assert.deepEqual(new Set(read), new Set(['18-00000.part', '19-00000.part']));
  // an entry one off is found, as on any board
  const wrong = splitBook(doc4x5({ ...entries, [minImage(TWO_LEFT).key]: entries[minImage(TWO_LEFT).key].replace(/^20/, '19') }));
  await assert.rejects(fromFiles(wrong).book.evaluate(TWO_LEFT), (e) => e instanceof BookError && e.code === 'entry-inconsistent');
  // The same entries as a version-2 book: step 7 refuses it, in Python's words
  // (tictactoe_book.book_format: "has impossible rules: board 4x5 has 20 cells; at most 16").
  assert.throws(() => loadBook(JSON.stringify(doc4x5(entries))), (e) => e instanceof BookError && e.code === 'rules'
    && e.message === 'book: has impossible rules: board 4x5 has 20 cells; at most 16 [rules]');
});

test('past 20 cells neither version reads a book: a 5x5 manifest and a 5x5 book are refused at step 7 in Python\'s words', () => {
  const doc = { ...doc4x5({}), rules: { ...doc4x5({}).rules, rows: 5, cells: 25 } };
  const manifest = JSON.stringify({ ...doc, version: 3, parts: [] });
  assert.throws(() => loadPartsBook(manifest, { readPart: () => null }), (e) => e.code === 'rules'
    && e.message === 'manifest.json: has impossible rules: board 5x5 has 25 cells; at most 20 [rules]');
  assert.throws(() => loadBook(JSON.stringify(doc)), (e) => e.code === 'rules'
    && e.message === 'book: has impossible rules: board 5x5 has 25 cells; at most 20 [rules]');
});

// ---------------------------------------------------------------- what is read

test('opening reads the manifest alone; an answer reads its part and its successors\' parts, and the parts are kept', async () => {
  const { book, read } = fromFiles(splitBook(JSON.parse(textOf('tictactoe.json'))));
  assert.deepEqual(read, []);
  //   . . .
  //   . . .      X to move: the empty board's part (layer 0) and its successors' (layer 1)
  //   . . .
  assert.deepEqual(await book.bestMoves('.........'), [0, 2, 6, 8]);
  assert.deepEqual(read, ['00-00000.part', '01-00000.part']);
  await book.evaluate('....X....'); // layer 1 is held: layer 2 more
  assert.deepEqual(read, ['00-00000.part', '01-00000.part', '02-00000.part']);
  await book.evaluate('.........');
  assert.equal(book.reads, 3);
  assert.equal(book.bytesRead, book.parts.slice(0, 3).reduce((sum, part) => sum + part.bytes, 0));
});

test('answers asked at once read each part once', async () => {
  const { book, read } = fromFiles(splitBook(JSON.parse(textOf('tictactoe.json'))));
  const boards = ['.........', '....X....', 'X........', '.X.......', 'X...O....'];
  const whole = loadBook(textOf('tictactoe.json'));
  const answers = await Promise.all(boards.map((board) => book.evaluate(board)));
  assert.deepEqual(answers.map(facts), boards.map((board) => facts(whole.evaluate(board))));
  assert.deepEqual([...read].sort(), ['00-00000.part', '01-00000.part', '02-00000.part', '03-00000.part']);
});

test('a reader holds the cacheParts parts used last (never fewer than cells + 2): one dropped is read again when needed', async () => {
  const { doc } = THREE_BY_FOUR;
  const files = splitBook(doc, { partEntries: 4 });
  // A board with one free cell needs its own part alone: its one move ends the game. One such
  // board from each of the last layer's parts, in turn, uses exactly one part more each time.
  const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json')));
  const last = manifest.parts.filter((part) => part.layer === 11).map((part) => part.first);
  assert.ok(last.length >= 22, `${last.length} parts in the last layer`);
  for (const [cacheParts, held] of [[0, 14], [20, 20]]) {
    for (const [others, again] of [[held - 1, 0], [held, 1]]) {
      const { book, read } = fromFiles(files, { cacheParts, fast: true });
      for (const key of last.slice(0, 1 + others)) await book.evaluate(key);
      assert.equal(read.length, 1 + others);
      await book.evaluate(last[0]);
      assert.equal(read.length, 1 + others + again, `cacheParts ${cacheParts}: ${others} parts used since the first`);
    }
  }
  // and a reader that holds them all reads each part once, however many answers
  const { book, read } = fromFiles(files, { cacheParts: manifest.parts.length, fast: true });
  const some = byLayer(doc).filter((_, i) => i % 20 === 0);
  for (const key of [...some, ...some.reverse()]) await book.evaluate(key);
  assert.equal(new Set(read).size, read.length);
});

// ---------------------------------------------------------------- Node's files and the browser's fetch

test('openPartsBook reads a folder (or its manifest.json) from the file system, as loadPartsBook reads the files', async (t) => {
  const text = textOf('tictactoe-misere.json');
  const whole = loadBook(text);
  const folder = writeFolder(folderFor(t), splitBook(JSON.parse(text)));
  for (const where of [folder, join(folder, 'manifest.json'), new URL(`file://${folder}/manifest.json`)]) {
    const book = await openPartsBook(where);
    assert.deepEqual(facts(await book.evaluate('X...O....')), facts(whole.evaluate('X...O....')));
    assert.equal(book.reads, 2); // layer 2's part, and layer 3's for its successors
  }
  const missing = await openPartsBook(join(folder, 'nothing-here')).catch((error) => error);
  assert.ok(missing instanceof BookError && missing.code === 'unreadable', String(missing));
  const empty = await openPartsBook(folderFor(t)).catch((error) => error);
  assert.ok(empty instanceof BookError && empty.code === 'unreadable' && empty.message.includes('manifest.json: cannot be read (no such file)'), String(empty));
});

/** A fetch answering from `files` under `base` (404 for anything else), recording the URLs asked. */
function fakeFetch(files, base, answer = (bytes) => new Response(bytes)) {
  const asked = [];
  const fetch = async (url) => {
    asked.push(String(url));
    const name = String(url).startsWith(base) ? String(url).slice(base.length) : null;
    return files.has(name) ? answer(files.get(name), name) : new Response('not found', { status: 404 });
  };
  return { fetch, asked };
}

test('fetchPartsBook fetches the manifest and then each part by its URL relative to the manifest\'s, and answers as the version-2 book', async () => {
  const text = textOf('tictactoe-vs-random.json');
  const whole = loadBook(text);
  const files = splitBook(JSON.parse(text));
  const base = 'https://books.example/3x3/random/';
  for (const where of [base, `${base}manifest.json`, base.slice(0, -1)]) {
    const { fetch, asked } = fakeFetch(files, base);
    const book = await fetchPartsBook(where, { fetch });
    assert.deepEqual(asked, [`${base}manifest.json`]);
    assert.deepEqual(facts(await book.evaluate('X........')), facts(whole.evaluate('X........')));
    assert.deepEqual(asked, [`${base}manifest.json`, `${base}01-00000.part`, `${base}02-00000.part`]);
  }
  // the browser entry's openPartsBook is fetchPartsBook (Node's reads files)
  const { fetch } = fakeFetch(files, base);
  const real = globalThis.fetch;
  globalThis.fetch = fetch;
  try {
    const book = await browserEntry.openPartsBook(base);
    assert.deepEqual(await book.bestMoves('.........'), whole.bestMoves('.........'));
  } finally {
    globalThis.fetch = real;
  }
});

test('fetchPartsBook: a manifest not found is unreadable, a part not found part-missing, a part longer than the manifest says part-hash (read no further)', async () => {
  const files = splitBook(JSON.parse(textOf('tictactoe.json')));
  const base = 'https://books.example/3x3/';
  const refused = (promise) => promise.then(() => null, (error) => [error.code, error.message]);
  const none = fakeFetch(new Map(), base);
  const [code, message] = await refused(fetchPartsBook(base, { fetch: none.fetch }));
  assert.equal(code, 'unreadable');
  assert.equal(message, `${base}manifest.json: cannot be read (HTTP status 404) [unreadable]`);
  const partial = new Map(files);
  partial.delete('01-00000.part');
  const book = await fetchPartsBook(base, { fetch: fakeFetch(partial, base).fetch });
  const [missing, why] = await refused(book.evaluate('.........'));
  assert.equal(missing, 'part-missing');
  assert.match(why, /^https:\/\/books\.example\/3x3\/01-00000\.part: part "01-00000\.part" cannot be read \(HTTP status 404\) \[part-missing\]$/);
  // an endless body where a part should be: cancelled one byte past the part's length
  const made = { bytes: 0, cancelled: false };
  const endless = (bytes, name) => (name === 'manifest.json' ? new Response(bytes) : new Response(new ReadableStream({
    pull(controller) {
      made.bytes += 1024;
      controller.enqueue(new Uint8Array(1024));
    },
    cancel() {
      made.cancelled = true;
    },
  }, { highWaterMark: 0 })));
  const flooded = await fetchPartsBook(base, { fetch: fakeFetch(files, base, endless).fetch });
  const [long, said] = await refused(flooded.evaluate('.........'));
  assert.equal(long, 'part-hash');
  assert.match(said, /00-00000\.part: is more than \d+ bytes; the manifest says \d+ \[part-hash\]$/);
  assert.ok(made.cancelled && made.bytes <= 2048, JSON.stringify(made));
});

// ---------------------------------------------------------------- damage

/**
 * The parts vectors (book/parts-vectors.json; docs/conformance.md): the one corpus of damaged
 * books by parts, which tests/test_parts_vectors.py runs against the Python readers and the proof;
 * every case, the two of 20 cells included.
 */
const partsVectors = JSON.parse(readFileSync(new URL('book/parts-vectors.json', root), 'utf8'));

test('the parts vectors: every case answered or refused as they say, by readPart, by files and by fetch', async (t) => {
  const written = new WeakMap(); // a case's folder (a Map) -> its folder on disk, written once
  const openers = {
    fetch: fetchFolder,
    readPart: async (folder, fetched) => {
      if (!folder.has('manifest.json')) throw new BookError('unreadable', 'manifest.json: cannot be read (no such file) [unreadable]');
      return loadPartsBook(folder.get('manifest.json'), {
        sha256: (bytes) => createHash('sha256').update(bytes).digest('hex'),
        inflate: (bytes) => { // node:zlib's, which must refuse bytes after the stream (inflateSync alone does not)
          const { buffer, engine } = inflateSync(bytes, { info: true });
          if (engine.bytesWritten !== bytes.length) throw new Error('bytes follow the end of the stream');
          return buffer;
        },
        readPart: (file) => {
          fetched.push(file);
          if (!folder.has(file)) throw new Error(`no file ${file}`);
          return folder.get(file);
        },
      });
    },
    files: (folder) => {
      if (!written.has(folder)) written.set(folder, writeFolder(folderFor(t), folder));
      return openPartsBook(written.get(folder));
    },
  };
  const codes = new Set(partsVectors.cases.map((c) => c.expect).filter((code) => code !== 'valid'));
  assert.deepEqual([...codes].filter((code) => ![...REASON_CODES, ...PARTS_REASON_CODES].includes(code)), []);
  for (const [how, open] of Object.entries(openers)) {
    const failures = await checkPartsVectors(partsVectors, { open });
    assert.deepEqual(failures, [], `${how}: ${JSON.stringify(failures.slice(0, 5))}`);
  }
});

//   X X .
//   . O O      X to move (layer 4): its successors lie in layer 5
//   . . .
const ASKED = 'XX..OO...';
const flip = (bytes) => {
  const copy = bytes.slice();
  copy[copy.length >> 1] ^= 1;
  return copy;
};

test('undamaged parts still answer beside a damaged one; a damaged part fails each time it is needed', async () => {
  const files = splitBook(JSON.parse(textOf('tictactoe.json')));
  const { book, read } = fromFiles(new Map(files).set('05-00000.part', flip(files.get('05-00000.part'))));
  assert.deepEqual(await book.bestMoves('.........'), [0, 2, 6, 8]);
  for (let i = 0; i < 2; i++) await assert.rejects(book.evaluate(ASKED), (e) => e.code === 'part-hash');
  assert.equal(read.filter((file) => file === '05-00000.part').length, 2);
});

test('the versions refuse each other: loadBook a manifest, loadPartsBook a version-2 book', () => {
  const files = splitBook(JSON.parse(textOf('tictactoe.json')));
  assert.equal(PARTS_VERSION, 3);
  assert.throws(() => loadBook(files.get('manifest.json')), (e) => e.code === 'version' && /this reader reads version 2 \(a book by parts: openPartsBook reads it\)/.test(e.message));
  assert.throws(() => loadPartsBook(textOf('tictactoe.json'), { readPart: () => null }),
    (e) => e.code === 'version' && /this reader reads version 3 \(a whole book: loadBook reads it\)/.test(e.message));
  assert.throws(() => loadPartsBook(files.get('manifest.json'), { readPart: () => null, rules: { rows: 3, cols: 4, k: 3 } }), (e) => e.code === 'rules');
  assert.throws(() => loadPartsBook(files.get('manifest.json'), {}), TypeError);
  assert.throws(() => loadPartsBook(files.get('manifest.json'), { readPart: () => null, cacheParts: -1 }), TypeError);
});
