// Run with `node --test clients/js/` (make test does). The game state, Position, against an
// oracle written here from the rules alone (hand-written lines, its own walk of the game): every
// reachable position of 3x3 (normal and misère, X or O first) and of 3x4 with three in a row
// (misère) — its outcome, its legal moves, the mark to move and each move played —
// then the errors, immutability, and the reader taking a Position where it takes a board.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BoardError, IllegalMoveError, Position, Rng, RulesError, loadBook } from './tictactoe-book.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const book = loadBook(readFileSync(`${root}book/tictactoe.json`));
const misereBook = loadBook(readFileSync(`${root}book/tictactoe-misere.json`));

// ---------------------------------------------------------------- the oracle

// The winning lines, written out by hand in the order the rules list them: rows, columns, the
// diagonals down to the right, then down to the left.
const LINES_3X3 = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
//  0  1  2  3
//  4  5  6  7     3x4, three in a row
//  8  9 10 11
const LINES_3X4 = [
  [0, 1, 2], [1, 2, 3], [4, 5, 6], [5, 6, 7], [8, 9, 10], [9, 10, 11],
  [0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11],
  [0, 5, 10], [1, 6, 11],
  [2, 5, 8], [3, 6, 9],
];
const other = (mark) => (mark === 'X' ? 'O' : 'X');

/**
 * Every position reachable from the empty board when `first` moves first, with what the rules
 * say of it: the mark to move, and the outcome ({winner, line, completedBy} or null) — the winner the mark
 * owning a line, or under misère the other one; a full board without a line a draw.
 */
function oracle(lines, cells, misere, first) {
  const found = new Map();
  const walk = (board, turn) => {
    if (found.has(board)) return;
    const owned = lines.find((line) => board[line[0]] !== '.' && line.every((c) => board[c] === board[line[0]]));
    let outcome = null;
    if (owned) outcome = { winner: misere ? other(board[owned[0]]) : board[owned[0]], line: owned, completedBy: board[owned[0]] };
    else if (!board.includes('.')) outcome = { winner: null, line: [], completedBy: null };
    const free = [...board].flatMap((mark, c) => (mark === '.' ? [c] : []));
    found.set(board, { turn, outcome, moves: outcome ? [] : free });
    if (outcome) return;
    for (const c of free) walk(board.slice(0, c) + turn + board.slice(c + 1), other(turn));
  };
  walk('.'.repeat(cells), first);
  return found;
}

const GAMES = [
  ['3x3', { rows: 3, cols: 3, k: 3 }, LINES_3X3, 9],
  ['3x4 k=3', { rows: 3, cols: 4, k: 3 }, LINES_3X4, 12],
];

for (const [name, shape, lines, cells] of GAMES) {
  // 3x4 (112k positions, a second each) misère only: the normal rules are 3x3's
  for (const misere of name === '3x3' ? [false, true] : [true]) {
    for (const first of name === '3x3' ? ['X', 'O'] : ['X']) {
      test(`${name}${misere ? ' misère' : ''}, ${first} first: every reachable position's outcome, moves, turn and successors`, () => {
        const rules = { ...shape, misere };
        const positions = oracle(lines, cells, misere, first);
        if (name === '3x3') assert.equal(positions.size, 5478); // OpenSpiel's count of tic-tac-toe states
        let finished = 0;
        for (const [board, expected] of positions) {
          const position = new Position(board, rules, first);
          assert.equal(position.board, board);
          assert.equal(position.turn, expected.turn, board);
          assert.deepEqual(position.outcome(), expected.outcome, board);
          assert.equal(position.isOver, expected.outcome !== null, board);
          assert.deepEqual(position.legalMoves(), expected.moves, board);
          // every move on 3x3; on 3x4 (about 10 times the positions) the first and the last
          const played = cells === 9 ? expected.moves : [...new Set([expected.moves[0], expected.moves.at(-1)])];
          for (const cell of expected.moves.length ? played : []) {
            const child = position.play(cell);
            assert.equal(child.board, board.slice(0, cell) + expected.turn + board.slice(cell + 1));
            assert.ok(positions.has(child.board), `${board} + ${cell}`);
          }
          if (expected.outcome) {
            finished++;
            assert.throws(() => position.play(0), IllegalMoveError, board);
          }
        }
        assert.ok(finished > 0);
      });
    }
  }
}

//  0  1  2  3  4
//  5  6  7  8  9     4x5, four in a row: 20 cells, past the 16 of a whole-file book
// 10 11 12 13 14
// 15 16 17 18 19
const LINES_4X5 = [
  [0, 1, 2, 3], [1, 2, 3, 4], [5, 6, 7, 8], [6, 7, 8, 9], [10, 11, 12, 13], [11, 12, 13, 14], [15, 16, 17, 18], [16, 17, 18, 19],
  [0, 5, 10, 15], [1, 6, 11, 16], [2, 7, 12, 17], [3, 8, 13, 18], [4, 9, 14, 19],
  [0, 6, 12, 18], [1, 7, 13, 19],
  [3, 7, 11, 15], [4, 8, 12, 16],
];

/** A seeded source of numbers from 0 up to 1 (mulberry32), so that the random games are the same each run. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** What the rules say of `board` (as oracle's entries): the owner of the first line owned, or a full board a draw. */
function judged(board, lines, misere, turn) {
  const owned = lines.find((line) => board[line[0]] !== '.' && line.every((c) => board[c] === board[line[0]]));
  let outcome = null;
  if (owned) outcome = { winner: misere ? other(board[owned[0]]) : board[owned[0]], line: owned, completedBy: board[owned[0]] };
  else if (!board.includes('.')) outcome = { winner: null, line: [], completedBy: null };
  const free = [...board].flatMap((mark, c) => (mark === '.' ? [c] : []));
  return { turn, outcome, moves: outcome ? [] : free };
}

for (const misere of [false, true]) {
  for (const first of ['X', 'O']) {
    test(`4x5 k=4${misere ? ' misère' : ''}, ${first} first: 300 random games, each position's outcome, moves and turn as the rules say`, () => {
      const rules = { rows: 4, cols: 5, k: 4, misere };
      const random = seeded(misere * 2 + (first === 'O') + 45);
      let finished = 0;
      let drawn = 0;
      for (let game = 0; game < 300; game++) {
        let board = '.'.repeat(20);
        let turn = first;
        let position = Position.empty(rules, first);
        for (;;) {
          const expected = judged(board, LINES_4X5, misere, turn);
          assert.equal(position.board, board);
          assert.equal(position.turn, expected.turn, board);
          assert.deepEqual(position.outcome(), expected.outcome, board);
          assert.equal(position.isOver, expected.outcome !== null, board);
          assert.deepEqual(position.legalMoves(), expected.moves, board);
          assert.deepEqual(new Position(board, rules, first), position, board);
          if (expected.outcome) {
            finished++;
            drawn += expected.outcome.winner === null;
            assert.throws(() => position.play(expected.moves[0] ?? 0), IllegalMoveError, board);
            break;
          }
          const cell = expected.moves[Math.floor(random() * expected.moves.length)];
          position = position.play(cell);
          board = board.slice(0, cell) + turn + board.slice(cell + 1);
          turn = other(turn);
        }
      }
      assert.equal(finished, 300);
      assert.ok(drawn > 0 && drawn < 300, `${drawn} draws`); // games that fill all 20 cells, and games won
      assert.throws(() => Position.empty(rules).play(20), (e) => e instanceof IllegalMoveError && /off the board \(0 to 19\)/.test(e.message));
    });
  }
}

test('lineOwners: the marks owning a line, under misère too (the owners lose); winners is its deprecated alias', () => {
  const owners = (board) => new Set(['X', 'O'].filter((mark) => LINES_3X3.some((line) => line.every((c) => board[c] === mark))));
  // every reachable board, finished ones included, and one no game reaches (both own a line)
  const boards = [...oracle(LINES_3X3, 9, false, 'X').keys(), 'XXXOOO...'];
  for (const board of boards) {
    for (const reader of [book, misereBook]) {
      assert.deepEqual(reader.lineOwners(board), owners(board), board);
      assert.deepEqual(reader.winners(board), reader.lineOwners(board), board);
    }
  }
  assert.deepEqual(misereBook.lineOwners('XXXOO....'), new Set(['X']));
  assert.equal(new Position('XXXOO....', misereBook.rules).outcome().winner, 'O');
  assert.deepEqual(book.lineOwners('XXXOOO...'), new Set(['X', 'O']));
});

test('the issue\'s example: X completes the top row under misère, so O wins', () => {
  // X X X
  // O O .      misère: X completed the line, and loses
  // . . .
  const position = new Position('XXXOO....', { rows: 3, cols: 3, k: 3, misere: true });
  assert.deepEqual(position.outcome(), { winner: 'O', line: [0, 1, 2], completedBy: 'X' });
  assert.equal(new Position('XXXOO....').outcome().winner, 'X');
  assert.deepEqual(position.legalMoves(), []);
});

test('a last move completing two lines: the first of the rules\' lines is the one named', () => {
  // X X X
  // X O O      X's fifth mark (cell 0) completed the top row and the left column at once
  // X O O
  assert.deepEqual(new Position('XXXXOOXOO').outcome(), { winner: 'X', line: [0, 1, 2], completedBy: 'X' });
  assert.equal(new Position('.XXXOOXOO').play(0).outcome().winner, 'X');
});

test('a game played through: the default rules are 3x3, three in a row, X first', () => {
  let position = Position.empty();
  for (const cell of [4, 0, 8, 2, 1, 7, 6, 3, 5]) position = position.play(cell);
  // O X O
  // O X X      a full board, no line: a draw
  // X O X
  assert.equal(position.board, 'OXOOXXXOX');
  assert.deepEqual(position.outcome(), { winner: null, line: [], completedBy: null });
  assert.equal(Position.empty({ rows: 4, cols: 4, k: 4 }).board, '.'.repeat(16));
  assert.equal(Position.empty(undefined, 'O').turn, 'O');
  assert.equal(String(new Position('X........')), 'X........');
});

// ---------------------------------------------------------------- what it refuses

test('bad rules throw RulesError naming the value', () => {
  for (const [rules, words] of [
    [{ rows: 0, cols: 3, k: 3 }, 'rows must be a positive integer, got 0'],
    [{ rows: 3, cols: 3.5, k: 3 }, 'cols must be a positive integer, got 3.5'],
    [{ rows: 3, cols: 3 }, 'k must be a positive integer, got nothing'],
    [{ rows: 5, cols: 5, k: 4 }, 'board 5x5 has 25 cells; at most 20'],
    [{ rows: 1, cols: 21, k: 4 }, 'board 1x21 has 21 cells; at most 20'],
    [{ rows: 3, cols: 3, k: 4 }, 'k=4 does not fit on a 3x3 board'],
    [{ rows: 3, cols: 3, k: 3, misere: 'no' }, 'misere must be true or false, got "no"'],
    [null, 'rules must be an object'],
  ]) {
    assert.throws(() => new Position('.........', rules), (e) => e instanceof RulesError && e.message.includes(words), words);
  }
  assert.throws(() => new Position('.........', undefined, 'x'), TypeError);
});

test('bad boards throw BoardError with the reader\'s codes; a finished game is a position', () => {
  for (const [board, code, first] of [
    ['X.O', 'length'], ['X.O.Z....', 'character'], ['x........', 'character'], [9, 'character'],
    ['XX.......', 'counts'], ['O........', 'counts'], ['X........', 'counts', 'O'],
    // X X X
    // O O O      both own a line: no game gets here
    // . . .
    ['XXXOOO...', 'unreachable'],
    // X X X
    // O O .      X owns a line, but the marks say O moved last
    // O . .
    ['XXXOO.O..', 'unreachable'],
  ]) {
    assert.throws(() => new Position(board, undefined, first), (e) => e instanceof BoardError && e.code === code, String(board));
  }
  assert.equal(new Position('XXXOO....').isOver, true);
  assert.equal(new Position('OOOXX....', undefined, 'O').outcome().winner, 'O');
});

test('play refuses a cell off the board, a taken cell, a cell that is no integer, and any move once the game is over', () => {
  const position = new Position('X........');
  for (const cell of [-1, 9]) {
    assert.throws(() => position.play(cell), { name: 'IllegalMoveError', message: `cell ${cell} is off the board (0 to 8)` });
  }
  // each named as the caller wrote it (NaN was "cell null"), with the cells there are, as Python says
  for (const [cell, shown] of [[1.5, '1.5'], ['4', '"4"'], [null, 'null'], [true, 'true'], [NaN, 'NaN'], [Infinity, 'Infinity'], [-0.5, '-0.5'], [4n, '4n'], [undefined, 'nothing']]) {
    const message = `cell ${shown} is not a cell: cells are whole numbers (0 to 8)`;
    assert.throws(() => position.play(cell), (e) => e instanceof IllegalMoveError && e.message === message, String(cell));
  }
  assert.throws(() => position.play(0), (e) => e instanceof IllegalMoveError && e.message.includes('taken by X'));
  assert.throws(() => new Position('XXXOO....').play(5), (e) => e instanceof IllegalMoveError && e.message.includes('is over'));
  assert.equal(position.board, 'X........'); // unchanged
});

test('a position cannot be changed, nor its outcome', () => {
  const position = new Position('XXXOO....');
  assert.throws(() => { position.board = 'O........'; }, TypeError);
  assert.throws(() => { position.rules.misere = true; }, TypeError);
  assert.throws(() => { position.outcome().line.push(3); }, TypeError);
  assert.throws(() => { position.outcome().winner = 'O'; }, TypeError);
  assert.equal(position.outcome().winner, 'X');
});

// ---------------------------------------------------------------- the reader takes a Position

test('evaluate, bestMoves and chooseMove take a Position as they take its board and first', () => {
  for (const [board, first] of [['X...O...X', 'X'], ['O...X....', 'O'], ['.........', 'X']]) {
    const position = new Position(board, undefined, first);
    assert.deepEqual(JSON.stringify(book.evaluate(position)), JSON.stringify(book.evaluate(board, { first })));
    assert.deepEqual(book.bestMoves(position), book.bestMoves(board, { first }));
    assert.ok(book.bestMoves(board, { first }).includes(book.chooseMove(position, { random: () => 0.5 })));
  }
  // O . .
  // . X .      O moved first, X answered: O to move
  // . . .
  assert.equal(book.evaluate(new Position('O...X....', undefined, 'O')).turn, 'O');
  assert.deepEqual(misereBook.optimalMoves(Position.empty({ rows: 3, cols: 3, k: 3, misere: true })), [4]);
});

test('the reader refuses a Position of another game, or a first that contradicts it', () => {
  const misere = Position.empty({ rows: 3, cols: 3, k: 3, misere: true });
  assert.throws(() => book.evaluate(misere), (e) => e instanceof RulesError && e.message.includes('3x3 k=3 misère, but the book is for 3x3 k=3'));
  assert.throws(() => book.chooseMove(Position.empty({ rows: 3, cols: 4, k: 3 })), RulesError);
  // refused alike by every question, and by Python's reader, naming both marks and what to do
  const began = new Position('O........', undefined, 'O');
  const message = 'first "X" is not the position\'s (O moved first): leave first out when you pass a Position';
  for (const ask of [(o) => book.evaluate(began, o), (o) => book.bestMoves(began, o), (o) => book.optimalMoves(began, o), (o) => book.chooseMove(began, o)]) {
    assert.throws(() => ask({ first: 'X' }), { name: 'TypeError', message });
    assert.equal(JSON.stringify(ask({ first: 'O', rng: new Rng(3) })), JSON.stringify(ask({ rng: new Rng(3) })));
  }
  assert.throws(() => book.evaluate(new Position('XXXOO....')), (e) => e instanceof BoardError && e.code === 'over');
});

test('the outcome of a move that cannot be played says why, as play does and as Python does', () => {
  // it answered a draw for a taken cell (issue 40, item 5)
  const answer = book.evaluate('X...O....');
  for (const [cell, message] of [
    [0, 'cell 0 of "X...O...." is taken by X'],
    [9, 'cell 9 is off the board (0 to 8)'],
    [NaN, 'cell NaN is not a cell: cells are whole numbers (0 to 8)'],
    ['2', 'cell "2" is not a cell: cells are whole numbers (0 to 8)'],
  ]) {
    assert.throws(() => answer.outcome(cell), { name: 'IllegalMoveError', message }, String(cell));
  }
  assert.deepEqual(answer.outcome(2), { value: 0, plies: 7 });
});

test('a game against the book, both sides asking the position: perfect play draws', () => {
  let position = Position.empty();
  while (!position.isOver) position = position.play(book.chooseMove(position, { random: () => 0 }));
  assert.deepEqual(position.outcome(), { winner: null, line: [], completedBy: null });
});
