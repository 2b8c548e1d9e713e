// Run with `node --test web/` (make test-js runs it). The page's way of asking a book by parts
// (web/byparts.js): a question asked at once of the answers read so far, and asked again once
// the answer it lacked is read, gives what the whole book gives asked once: the answers, and the
// hints' chances with their play-outs' budget, which must run out exactly where one run's would
// (hints.js's `limits`). The book by parts is the packaged 3x3 book cut by the tests' writer
// (clients/js/make-parts.mjs) and read by the reader's loadPartsBook; the whole book is the same
// book read by loadBook.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { Position, loadBook, loadPartsBook } from '../clients/js/tictactoe-book.js';
import { splitBook } from '../clients/js/make-parts.mjs';
import { KnownAnswers, Unread, isPartsBook, settled } from './byparts.js';
import { TooManyLines, moveHints, why, winChances } from './hints.js';

const text = readFileSync(new URL('../book/tictactoe.json', import.meta.url), 'utf8');
const whole = loadBook(text);

/** The packaged book by parts (a part for every 16 keys: many parts), as the page holds it. */
function byParts() {
  const files = splitBook(JSON.parse(text), { partEntries: 16 });
  const reader = loadPartsBook(files.get('manifest.json'), {
    readPart: (file) => files.get(file),
    sha256: (bytes) => createHash('sha256').update(bytes).digest('hex'),
    inflate: (bytes) => inflateSync(bytes),
  });
  return new KnownAnswers(reader);
}

/** A game's positions: the empty board and the board after each of `moves`. */
function positions(moves, first = 'X') {
  const found = [Position.empty(whole.rules, first)];
  for (const cell of moves) found.push(found.at(-1).play(cell));
  return found.filter((position) => !position.isOver);
}

/** winChances' answer as plain data: each cell's chance against each opponent, or 'too many lines'. */
function chancesOf(ask) {
  let chances;
  try {
    chances = ask();
  } catch (error) {
    if (error instanceof TooManyLines) return 'too many lines';
    throw error;
  }
  return [...chances].map(([cell, by]) => [cell, Object.entries(by).map(([name, r]) => `${name} ${r.n}/${r.d}`)]);
}

test('a book by parts is named by a URL ending in / or /manifest.json', () => {
  assert.equal(isPartsBook('http://h/user/4x4-parts/'), true);
  assert.equal(isPartsBook('http://h/user/4x4-parts/manifest.json?x=1'), true);
  assert.equal(isPartsBook('http://h/user/4x4.json'), false);
  assert.equal(isPartsBook('http://h/user/my-manifest.json'), false);
});

test('an answer not read yet throws Unread; read, it is the reader’s, and the whole book’s', async () => {
  const known = byParts();
  for (const position of positions([4, 0, 8, 2], 'O')) {
    const asked = () => known.evaluate(position.board, { first: position.first });
    assert.throws(asked, (error) => error instanceof Unread && error.board === position.board && error.first === 'O');
    const answer = await settled(known, asked);
    assert.equal(known.evaluate(position), answer); // a Position asks the same question
    const { outcome, ...rest } = answer;
    const { outcome: wholeOutcome, ...expected } = whole.evaluate(position);
    assert.deepEqual(rest, expected);
  }
  assert.ok(known.reader.reads > 0);
  known.forget();
  assert.throws(() => known.evaluate('.'.repeat(9)), Unread);
});

// The walks of a game's hints (shared from hint to hint, as the page shares them) with a budget
// small enough to run out: asked again after each answer read, with the limits of the first
// asking, they stop where one run on the whole book stops, and count the same chances.
for (const budget of [25, 80, 300, null]) {
  for (const first of ['X', 'O']) {
    test(`the hints' chances by parts are the whole book's, budget ${budget}, ${first} first`, async () => {
      const known = byParts();
      const walks = { whole: new Map(), parts: new Map() };
      const said = [];
      for (const position of positions([0, 4, 8, 2, 6], first)) {
        const { board } = position;
        const expected = chancesOf(() => winChances(whole, board, { first, budget, walks: walks.whole }));
        const limits = {};
        const got = await settled(known, () => chancesOf(() => winChances(known, board, { first, budget, walks: walks.parts, limits })));
        assert.deepEqual(got, expected, board);
        said.push(expected === 'too many lines');
      }
      if (budget === 25) assert.ok(said.includes(true), 'a budget that never ran out tests nothing');
    });
  }
}

test('the hints and their sentence by parts are the whole book’s, along a game', async () => {
  const known = byParts();
  const walks = { whole: new Map(), parts: new Map() };
  for (const position of positions([1, 4, 0, 2, 6, 3])) {
    const { board, first } = position;
    const expected = moveHints(whole, board, { first, walks: walks.whole });
    const limits = {};
    const got = await settled(known, () => moveHints(known, board, { first, walks: walks.parts, limits }));
    assert.deepEqual(got, expected, board);
    assert.equal(why(got, known.against), why(expected, whole.against));
  }
});
