// Run with `node --test clients/js/` (make test does). Every conformance vector, plus loading
// checks, level semantics, and a never-loses enumeration, against the shipped book.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BoardError, BookError, LEVELS, contentChecksum, loadBook } from './tictactoe-book.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bookText = readFileSync(`${root}book/tictactoe.json`, 'utf8');
const vectors = JSON.parse(readFileSync(`${root}book/vectors.json`, 'utf8'));
const book = loadBook(bookText);

test('the vectors are for this book', () => {
  assert.equal(vectors.format, 'tictactoe-book-vectors');
  assert.equal(vectors.book_checksum, JSON.parse(bookText).checksum);
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

function damaged(change, fixChecksum = false) {
  const data = JSON.parse(bookText);
  change(data);
  if (fixChecksum) data.checksum = contentChecksum(data);
  return JSON.stringify(data);
}

test('loading refuses damaged and foreign books with a BookError', () => {
  const cases = {
    'not JSON': bookText.slice(0, 1000),
    'an array': '[]',
    'another version': damaged((d) => { d.version = 2; }, true),
    'other rules': damaged((d) => { d.rules.k = 2; }, true),
    'bad checksum': damaged((d) => { d.counts.games = 1; }),
    'altered value': damaged((d) => { d.entries['.........'].tiers = [[4]]; }),
    'illegal move, checksum fixed': damaged((d) => { d.entries['........X'].tiers = [[8]]; }, true),
    'score on an occupied cell': damaged((d) => { d.entries['........X'].scores[8] = 0; }, true),
    'wrong value': damaged((d) => { d.entries['.........'].value = 1; }, true),
    'non-canonical key': damaged((d) => {
      d.entries['X........'] = d.entries['........X'];
      delete d.entries['........X'];
    }, true),
    'a symmetry that is not a permutation': damaged((d) => { d.symmetries[1].perm[0] = 1; }, true),
  };
  for (const [name, text] of Object.entries(cases)) {
    assert.throws(() => loadBook(text), BookError, name);
  }
  assert.throws(() => loadBook(bookText, { rules: { rows: 3, cols: 4, k: 3 } }), /not 3x4 k=3/);
});

test('a re-indented book keeps its checksum', () => {
  const pretty = JSON.stringify(JSON.parse(bookText), null, 2);
  assert.equal(loadBook(pretty).evaluate('.........').value, 0);
});

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

test('perfect never loses, as X or O, whoever moves first, following every tie', () => {
  const other = (m) => (m === 'X' ? 'O' : 'X');
  for (const first of ['X', 'O']) {
    for (const computer of ['X', 'O']) {
      const seen = new Set();
      const walk = (board, turn) => {
        if (seen.has(board)) return;
        seen.add(board);
        const won = book.winners(board);
        assert.ok(!won.has(other(computer)), `lost on ${board}`);
        if (won.size || !board.includes('.')) return;
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

test('fuzz: random byte flips and truncations load equivalently or fail with BookError', () => {
  let seed = 20261122;
  const next = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 4294967296;
  };
  const probes = ['.........', '....X....', 'X...O....', 'XX.OO....'];
  const expected = probes.map((b) => JSON.stringify(book.evaluate(b, {}), (k, v) => (typeof v === 'function' ? undefined : v)));
  let refused = 0;
  for (let i = 0; i < 300; i++) {
    let text = bookText;
    if (i % 3 === 0) {
      text = text.slice(0, Math.floor(next() * text.length));
    } else {
      const chars = [...text];
      for (let f = 0; f < 1 + (i % 4); f++) chars[Math.floor(next() * chars.length)] = String.fromCharCode(32 + Math.floor(next() * 95));
      text = chars.join('');
    }
    let loaded;
    try {
      loaded = loadBook(text);
    } catch (error) {
      assert.ok(error instanceof BookError, `${error.name}: ${error.message}`);
      refused++;
      continue;
    }
    probes.forEach((b, j) => {
      const answer = JSON.stringify(loaded.evaluate(b, {}), (k, v) => (typeof v === 'function' ? undefined : v));
      assert.equal(answer, expected[j]);
    });
  }
  assert.ok(refused > 250);
});
