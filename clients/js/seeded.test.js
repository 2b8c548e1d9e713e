// Run with `node --test clients/js/` (make test does). The seeded choice (Rng, chooseMove's rng)
// as docs/porting.md, "5. Levels", writes it: mulberry32's published numbers, the redraw of a
// number among the top 2^32 mod n, no draw for one candidate, the seeds it takes; and the games
// it plays, against a pick written here from the document's words over BigInt arithmetic (which
// shares none of the reader's 32-bit tricks). tests/test_seeded_games.py plays the same seeds in
// Python, the engine, C and Rust.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LEVELS, MAX_SEED, Position, Rng, loadBook } from './tictactoe-book.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const book = loadBook(readFileSync(`${root}book/tictactoe.json`));

// ---------------------------------------------------------------- the oracle, from the words

const MASK = (1n << 32n) - 1n;
/** [the new state, the number] of mulberry32 from `state`, in BigInt: sums and products mod 2^32. */
function mulberry32(state) {
  const s = (BigInt(state) + 0x6d2b79f5n) & MASK;
  let z = s;
  z = ((z ^ (z >> 15n)) * (z | 1n)) & MASK;
  z ^= (z + (z ^ (z >> 7n)) * (z | 61n)) & MASK;
  return [Number(s), Number(z ^ (z >> 14n))];
}
/** [the index, the new state] of a choice among `count` from `state`: none drawn for one. */
function pickOf(count, state) {
  if (count === 1) return [0, state];
  for (;;) {
    const [next, number] = mulberry32(state);
    state = next;
    if (number < 2 ** 32 - (2 ** 32 % count)) return [number % count, state];
  }
}
// Seeds whose first number is among the top 2^32 mod 9 = 4 (tests/oracles/mulberry32.py).
const REDRAWN = [394144346, 1433749601, 1749556311];

// ---------------------------------------------------------------- the generator

test('the numbers are mulberry32\'s: the published ones from seed 1, the oracle\'s from others', () => {
  const one = new Rng(1);
  assert.deepEqual([one.nextU32(), one.nextU32(), one.nextU32()], [2693262067, 11749833, 2265367787]);
  for (const seed of [0, 7, 2024, ...REDRAWN, MAX_SEED]) {
    const rng = new Rng(seed);
    let state = seed;
    for (let i = 0; i < 50; i++) {
      const [next, number] = mulberry32(state);
      state = next;
      assert.deepEqual([rng.nextU32(), rng.state], [number, state], `${seed} #${i}`);
    }
  }
});

test('a pick is the documented one: a number among the top 2^32 mod n is drawn again, none for one', () => {
  for (const count of [1, 2, 3, 5, 8, 9, 12, 16, 2 ** 31 + 1, 2 ** 32]) {
    for (let seed = 0; seed < 200; seed++) {
      const rng = new Rng(seed);
      assert.deepEqual([rng.pick(count), rng.state], pickOf(count, seed), `${count} ${seed}`);
    }
  }
  for (const seed of REDRAWN) {
    const rng = new Rng(seed);
    assert.ok(mulberry32(seed)[1] >= 2 ** 32 - 4);
    assert.equal(rng.pick(9), mulberry32(mulberry32(seed)[0])[1] % 9);
    assert.equal(rng.state, (seed + 2 * 0x6d2b79f5) % 2 ** 32);
  }
  const rng = new Rng(5);
  assert.equal(rng.pick(1), 0);
  assert.equal(rng.choice(['only']), 'only');
  assert.equal(rng.state, 5);
});

test('a seed is a whole number from 0 to 2^32 - 1, and a bad one is named as given', () => {
  assert.equal(MAX_SEED, 4294967295);
  for (const [seed, shown] of [[-1, '-1'], [2 ** 32, '4294967296'], [1.5, '1.5'], [NaN, 'NaN'], [Infinity, 'Infinity']]) {
    assert.throws(() => new Rng(seed), { name: 'RangeError', message: `seed ${shown} is not a whole number from 0 to 4294967295` });
  }
  for (const [seed, shown] of [['7', '"7"'], [null, 'null'], [7n, '7n'], [undefined, 'nothing'], [true, 'true']]) {
    assert.throws(() => new Rng(seed), { name: 'TypeError', message: `a seed is a whole number from 0 to 4294967295, got ${shown}` });
  }
  for (const count of [0, -1, 1.5, 2 ** 32 + 1, NaN]) assert.throws(() => new Rng(1).pick(count), RangeError, String(count));
});

// ---------------------------------------------------------------- chooseMove

test('chooseMove with an rng plays, at every level, the game the documented picks make', () => {
  for (const level of LEVELS) {
    for (let seed = 0; seed < 20; seed++) {
      const rng = new Rng(seed);
      let state = seed;
      let position = Position.empty();
      while (!position.isOver) {
        const options = book.candidates(book.evaluate(position), level);
        const [index, next] = pickOf(options.length, state);
        state = next;
        assert.equal(book.chooseMove(position, { level, rng }), options[index], `${level} ${seed} ${position.board}`);
        assert.equal(rng.state, state);
        position = position.play(options[index]);
      }
    }
  }
});

test('an O-first game is the X-first game from the same seed, its marks swapped', () => {
  for (let seed = 0; seed < 10; seed++) {
    const games = ['X', 'O'].map((first) => {
      const rng = new Rng(seed);
      const cells = [];
      let position = Position.empty(undefined, first);
      while (!position.isOver) {
        cells.push(book.chooseMove(position, { level: 'easy', rng }));
        position = position.play(cells.at(-1));
      }
      return cells;
    });
    assert.deepEqual(games[0], games[1], String(seed));
  }
});

test('chooseMove takes an rng or a random(), not both; anything else as rng is a TypeError', () => {
  assert.throws(() => book.chooseMove('.........', { rng: new Rng(1), random: Math.random }), /^TypeError: give rng or random, not both/);
  for (const rng of [1, null, {}, () => 0]) {
    assert.throws(() => book.chooseMove('.........', { rng }), /^TypeError: rng must be an Rng \(new Rng\(seed\)\)/, String(rng));
  }
  assert.ok([0, 2, 6, 8].includes(book.chooseMove('.........'))); // neither: the default generator
});
