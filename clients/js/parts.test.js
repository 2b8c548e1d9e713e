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
 * books by parts, which tests/test_parts_vectors.py runs against the Python readers and the proof.
 * Two cases hold a book of 20 cells, which a book by parts may (docs/book-parts.md) and this
 * reader cannot yet read (16 cells at most: 16-bit masks, 26-bit codes; issue 37, item 5): they
 * are the failures expected, and this test fails the day they pass, to be told so.
 */
const UP_TO_16_CELLS = ['rules-of-20-cells-lines-of-9', 'twenty-cells'];
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
    const failing = [...new Set(failures.map(({ name }) => name))];
    assert.deepEqual(failing, UP_TO_16_CELLS, `${how}: ${JSON.stringify(failures.slice(0, 5))}`);
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
