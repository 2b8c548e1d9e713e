// Conformance vectors against this reader (docs/conformance.md): every valid vector's answers,
// every invalid vector's reason code, and the seeded vectors (the generator's numbers, the games
// played from seeds). `node clients/js/check-vectors.mjs BOOK VECTORS` prints each failure and
// exits 1 if there is one; the tests import checkVectors.

import { readFileSync } from 'node:fs';
import { BoardError, Position, Rng, loadBook } from './tictactoe-book.js';

const WORDS = { 1: 'win', 0: 'draw', '-1': 'loss' };

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** Every way `reader` disagrees with `vectors`, as lines; empty when it passes them all. */
export function checkVectors(reader, vectors) {
  const failures = [];
  const expect = (ok, where, what) => { if (!ok) failures.push(`${where}: ${what}`); };
  const against = vectors.against ?? 'novice'; // absent from vectors written before it was added
  expect(reader.against === against, 'the book', `ranked against ${reader.against}, not ${against}`);
  for (const v of vectors.valid) {
    const where = `${v.board} (first ${v.first})`;
    const answer = reader.evaluate(v.board, { first: v.first });
    expect(answer.turn === v.turn, where, `turn ${answer.turn}, not ${v.turn}`);
    expect(answer.key === v.key, where, `key ${answer.key}, not ${v.key}`);
    expect(answer.symmetry === v.symmetry, where, `symmetry ${answer.symmetry}, not ${v.symmetry}`);
    expect(WORDS[answer.value] === v.value && answer.plies === v.plies, where,
      `${WORDS[answer.value]} in ${answer.plies}, not ${v.value} in ${v.plies}`);
    expect(same(answer.optimal, v.optimal), where, `optimal ${answer.optimal}, not ${v.optimal}`);
    expect(same(answer.tiers[0], v.top), where, `top tier ${answer.tiers[0]}, not ${v.top}`);
    expect(same(answer.scores, v.scores), where, `scores ${answer.scores}, not ${v.scores}`);
    for (const [level, cells] of Object.entries(v.levels)) {
      const got = reader.candidates(answer, level);
      expect(same(got, cells), where, `level ${level} chooses among ${got}, not ${cells}`);
    }
    expect(same(reader.optimalMoves(v.board, { first: v.first }), v.optimal), where, 'optimalMoves');
    expect(same(reader.bestMoves(v.board, { first: v.first }), v.top), where, 'bestMoves');
  }
  for (const v of vectors.invalid) {
    const where = `${JSON.stringify(v.board)} (first ${v.first})`;
    try {
      reader.evaluate(v.board, { first: v.first });
      failures.push(`${where}: answered, not refused with ${v.error}`);
    } catch (error) {
      expect(error instanceof BoardError && error.code === v.error, where, `refused with ${error.code ?? error}, not ${v.error}`);
    }
  }
  for (const v of vectors.generator) {
    const rng = new Rng(v.seed);
    const numbers = v.numbers.map(() => rng.nextU32());
    expect(same(numbers, v.numbers), `the generator from ${v.seed}`, `${numbers}, not ${v.numbers}`);
  }
  for (const v of vectors.games) {
    const rng = new Rng(v.seed);
    const moves = [];
    let position = Position.empty(reader.rules, v.first);
    while (!position.isOver) {
      moves.push(reader.chooseMove(position, { level: v.level, rng }));
      position = position.play(moves.at(-1));
    }
    expect(same(moves, v.moves) && rng.state === v.state, `the ${v.level} game from ${v.seed} (first ${v.first})`,
      `${moves} ending in state ${rng.state}, not ${v.moves} in ${v.state}`);
  }
  return failures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [bookPath, vectorsPath] = process.argv.slice(2);
  const reader = loadBook(readFileSync(bookPath), { source: bookPath });
  const failures = checkVectors(reader, JSON.parse(readFileSync(vectorsPath, 'utf8')));
  for (const line of failures.slice(0, 20)) console.log(line);
  console.log(`${failures.length} failure(s)`);
  process.exitCode = failures.length ? 1 : 0;
}
