// Run with `node --test clients/js/` (make test does). The conveniences a game library gives
// (issue 40, item 4): the board as a grid for people, a move read as a player types it (cells
// numbered 1 to N, as the README tells players), a game with its history and undo, rules read
// from text, and the lists of cells as plain arrays. tests/test_js_conveniences.py compares the
// grid, the move parser and the rules parser with Python's on many positions and spellings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  Game, IllegalMoveError, LEVELS, Position, RulesError, grid, loadBook, parseMove, parseRules,
} from './tictactoe-book.js';
import * as browser from './index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const book = loadBook(readFileSync(`${root}book/tictactoe.json`));

// ---------------------------------------------------------------- the grid

test('grid: 3x3, free cells numbered 1 to 9 (the docstring example)', () => {
  // X . .
  // . O .
  // . . X
  const position = new Position('X...O...X');
  const drawn = [
    ' X | 2 | 3',
    '---+---+---',
    ' 4 | O | 6',
    '---+---+---',
    ' 7 | 8 | X',
  ].join('\n');
  assert.equal(position.grid(), drawn);
  assert.equal(grid(position), drawn);
});

test('grid: an empty 3x4 board, numbers up to 12 right-aligned to two columns', () => {
  assert.equal(Position.empty('3x4:3').grid(), [
    '  1 |  2 |  3 |  4',
    '----+----+----+----',
    '  5 |  6 |  7 |  8',
    '----+----+----+----',
    '  9 | 10 | 11 | 12',
  ].join('\n'));
});

test('grid: 4x4 (16 cells: width 2), marks right-aligned like the numbers', () => {
  // X . . .
  // . O . .
  // . . X .
  // . . . O
  const position = new Position('X....O....X....O', '4x4:4');
  assert.equal(position.grid(), [
    '  X |  2 |  3 |  4',
    '----+----+----+----',
    '  5 |  O |  7 |  8',
    '----+----+----+----',
    '  9 | 10 |  X | 12',
    '----+----+----+----',
    ' 13 | 14 | 15 |  O',
  ].join('\n'));
});

test('grid: 4x5 (20 cells), a finished game too', () => {
  // X X X X .
  // O O O . .      X completed the top row
  // . . . . .
  // . . . . .
  const position = new Position('XXXX.OOO............', { rows: 4, cols: 5, k: 4 });
  assert.ok(position.isOver);
  assert.equal(grid(position), [
    '  X |  X |  X |  X |  5',
    '----+----+----+----+----',
    '  O |  O |  O |  9 | 10',
    '----+----+----+----+----',
    ' 11 | 12 | 13 | 14 | 15',
    '----+----+----+----+----',
    ' 16 | 17 | 18 | 19 | 20',
  ].join('\n'));
});

test('grid: read back, it gives the board of every reachable 3x3 position (X or O first)', () => {
  let seen = 0;
  for (const first of ['X', 'O']) {
    for (const position of allPositions(Position.empty(undefined, first)).values()) {
      const text = position.grid();
      assert.ok(!text.endsWith('\n'));
      const rows = text.split('\n');
      assert.equal(rows.length, 5);
      assert.deepEqual([rows[1], rows[3]], ['---+---+---', '---+---+---']);
      const cells = [rows[0], rows[2], rows[4]].flatMap((row) => row.split('|').map((c) => c.trim()));
      assert.equal(cells.map((c, i) => (c === String(i + 1) ? '.' : c)).join(''), position.board);
      seen += 1;
    }
  }
  assert.equal(seen, 2 * 5478);
});

test('grid: what is no Position is a TypeError', () => {
  for (const value of ['X...O...X', null, undefined, { board: 'X...O...X' }]) {
    assert.throws(() => grid(value), { name: 'TypeError', message: /^grid takes a Position, got / });
  }
});

// ---------------------------------------------------------------- the move parser

// X . .
// . O .      O to move; cells 5 (the centre) and 1, 9 (two corners) taken
// . . X
const XOX = new Position('X...O...X');
const refused = (text, message, position = XOX) => {
  assert.throws(() => position.parseMove(text), (error) => {
    assert.ok(error instanceof IllegalMoveError, error);
    assert.equal(error.message, message);
    return true;
  }, JSON.stringify(text));
  assert.throws(() => parseMove(text, position), { name: 'IllegalMoveError', message });
};

test('parseMove: a number from 1 to 9 is the cell one less, with spaces, tabs and line ends around it', () => {
  for (const [text, cell] of [
    ['2', 1], [' 2 ', 1], ['\t3\r\n', 2], ['6\n', 5], ['  8', 7], ['02', 1], ['0000000000000002', 1],
  ]) {
    assert.equal(XOX.parseMove(text), cell, JSON.stringify(text));
    assert.equal(parseMove(text, XOX), cell, JSON.stringify(text));
  }
});

test('parseMove: every free cell of every reachable 3x3 position, and 4x5 up to cell 20', () => {
  for (const position of allPositions(Position.empty()).values()) {
    for (const cell of position.legalMoves()) assert.equal(position.parseMove(String(cell + 1)), cell);
  }
  const big = Position.empty('4x5:4');
  assert.equal(big.parseMove('20'), 19);
  assert.equal(big.parseMove(' 1 '), 0);
  refused('21', 'move "21" is off the board: use 1 to 20', big);
});

test('parseMove: what is no number of ASCII digits is not a cell number', () => {
  for (const text of [
    '', ' ', '\t\n', 'abc', '+5', '-1', '5.0', '1e1', '5 5', '0x5', 'five',
    '٥', // ARABIC-INDIC DIGIT FIVE: a digit, not an ASCII one
    '５', // FULLWIDTH DIGIT FIVE
    '\u00a05', // a no-break space is not stripped (as Python's strip(" \t\r\n"))
    '\v5', '\f5',
    '00000000000000002', // 17 digits: more than any cell number needs
  ]) {
    refused(text, `move ${JSON.stringify(text)} is not a cell number: use 1 to 9`);
  }
});

test('parseMove: a number that is no cell is off the board', () => {
  for (const text of ['0', '00', '10', ' 10 ', '9999999999999999']) {
    refused(text, `move ${JSON.stringify(text)} is off the board: use 1 to 9`);
  }
  refused('13', 'move "13" is off the board: use 1 to 12', Position.empty('3x4'));
});

test('parseMove: a taken cell, and any cell once the game is over (before whether it is taken)', () => {
  refused('5', 'move "5": cell 5 is taken');
  refused(' 1', 'move " 1": cell 1 is taken');
  // X X X
  // O O .      X has won
  // . . .
  const over = new Position('XXXOO....');
  refused('6', 'move "6": the game is over', over);
  refused('1', 'move "1": the game is over', over);
  refused('10', 'move "10" is off the board: use 1 to 9', over);
  const draw = new Position('XOXXOOOXX');
  refused('5', 'move "5": the game is over', draw);
});

test('parseMove: the text is named as given, cut after 100 characters', () => {
  const long = `${'7'.repeat(150)}`;
  refused(long, `move "${'7'.repeat(100)}"... (150 characters) is not a cell number: use 1 to 9`);
  refused('say "hi"', 'move "say \\"hi\\"" is not a cell number: use 1 to 9');
});

test('parseMove: a text that is no string is a TypeError naming its type', () => {
  for (const [value, kind] of [[5, 'a number'], [null, 'null'], [undefined, 'undefined'], [['5'], 'an array'], [{}, 'an object']]) {
    assert.throws(() => XOX.parseMove(value), { name: 'TypeError', message: `a move must be a string such as "5", got ${kind}` });
  }
  assert.throws(() => parseMove('5', 'X...O...X'), { name: 'TypeError', message: 'parseMove takes a Position, got a string' });
});

// ---------------------------------------------------------------- the game with its history

test('Game: from the empty 3x3 board unless given a start; play, moves, position', () => {
  const game = new Game();
  assert.equal(game.start.board, '.........');
  assert.equal(game.position, game.start);
  assert.deepEqual(game.moves, []);
  const after = game.play(4);
  assert.equal(after.board, '....X....');
  assert.equal(game.position, after);
  game.play(0);
  assert.deepEqual(game.moves, [4, 0]);
  assert.equal(game.position.board, 'O...X....');
  assert.equal(new Game(null).start.board, '.........');
  const misere = Position.empty('3x4:3:misere', 'O');
  const other = new Game(misere);
  assert.equal(other.start, misere);
  assert.equal(other.play(11).board, '...........O');
});

test('Game: undo takes the moves back in turn, to the start itself, then answers null', () => {
  const game = new Game(XOX);
  assert.equal(game.undo(), null); // a fresh game: nothing to take back
  assert.equal(game.position, XOX);
  game.play(1);
  const second = game.play(7);
  game.play(3);
  assert.equal(game.undo(), 3);
  assert.equal(game.position, second); // the same Position, not a copy
  assert.deepEqual(game.moves, [1, 7]);
  assert.equal(game.undo(), 7);
  assert.equal(game.undo(), 1);
  assert.equal(game.position, XOX);
  assert.deepEqual(game.moves, []);
  assert.equal(game.undo(), null);
  assert.equal(game.position, XOX);
});

test('Game: an illegal move throws IllegalMoveError and changes nothing; after the game is over too', () => {
  const game = new Game();
  for (const cell of [0, 3, 1, 4]) game.play(cell);
  const before = game.position;
  for (const cell of [0, 9, -1, 1.5, NaN, '2']) {
    assert.throws(() => game.play(cell), IllegalMoveError);
    assert.equal(game.position, before);
    assert.deepEqual(game.moves, [0, 3, 1, 4]);
  }
  // X X X
  // O O .      X has won
  // . . .
  const won = game.play(2);
  assert.ok(won.isOver);
  assert.throws(() => game.play(8), { name: 'IllegalMoveError', message: /is over/ });
  assert.equal(game.position, won);
  assert.deepEqual(game.moves, [0, 3, 1, 4, 2]);
  assert.equal(game.undo(), 2); // undo after the game is over: it goes on
  assert.equal(game.position, before);
  assert.ok(!game.position.isOver);
  game.play(8); // X elsewhere, and O completes the middle row
  assert.equal(game.play(5).outcome().winner, 'O');
});

test('Game: moves is a frozen copy, start and position cannot be set', () => {
  const game = new Game();
  game.play(4);
  const moves = game.moves;
  assert.ok(Object.isFrozen(moves) && Array.isArray(moves));
  assert.throws(() => moves.push(8), TypeError);
  game.play(8);
  assert.deepEqual(moves, [4]); // a copy: the game's later moves are not in it
  assert.notEqual(game.moves, game.moves);
  assert.throws(() => { game.position = XOX; }, TypeError);
  assert.throws(() => { game.start = XOX; }, TypeError);
  assert.deepEqual(game.moves, [4, 8]);
});

test('Game: a start that is no Position is a TypeError', () => {
  for (const [value, kind] of [['.........', 'a string'], [{ board: '.........' }, 'an object'], [9, 'a number'], [new Game(), 'a Game']]) {
    assert.throws(() => new Game(value), { name: 'TypeError', message: `a game starts from a Position (new Position(board, rules)), got ${kind}` });
  }
});

test('Game, grid, parseMove and parseRules are exported for browsers and bundlers too (index.js)', () => {
  for (const name of ['Game', 'grid', 'parseMove', 'parseRules']) assert.equal(typeof browser[name], 'function', name);
  assert.equal(browser.Game, Game);
});

// ---------------------------------------------------------------- rules from text

test('parseRules: the spellings the command lines take', () => {
  for (const [text, rules] of [
    ['3x3', [3, 3, 3, false]],
    ['3x4', [3, 4, 3, false]],
    ['3x4:3', [3, 4, 3, false]],
    ['4x4:4', [4, 4, 4, false]],
    ['4x5', [4, 5, 4, false]],
    ['3x3:misere', [3, 3, 3, true]],
    ['3x3:3:misere', [3, 3, 3, true]],
    ['3X3:3:MISÈRE', [3, 3, 3, true]],
    [' 3x4:2 \n', [3, 4, 2, false]],
    ['1x1', [1, 1, 1, false]],
    ['03x04:03', [3, 4, 3, false]],
    ['\u20033x3\u0085', [3, 3, 3, false]], // Python's str.strip() takes these off
  ]) {
    const [rows, cols, k, misere] = rules;
    const read = parseRules(text);
    assert.deepEqual(read, { rows, cols, k, misere }, JSON.stringify(text));
    assert.ok(Object.isFrozen(read));
  }
});

test('parseRules: other spellings, and rules of no game, are RulesErrors', () => {
  const shape = (text) => `rules must look like 3x3, 3x4:3 or 3x3:3:misere, got ${JSON.stringify(text)}`;
  for (const [text, message] of [
    ['', shape('')],
    ['3', shape('3')],
    ['3x', shape('3x')],
    ['x3', shape('x3')],
    ['3x3:', shape('3x3:')],
    ['3x3:3:3', shape('3x3:3:3')],
    ['3x3x3', shape('3x3x3')],
    ['+3x3', shape('+3x3')],
    ['3 x 3', shape('3 x 3')],
    ['3x3 : 3', shape('3x3 : 3')],
    ['misere', shape('misere')],
    [':misere', shape(':misere')],
    ['3x3:misere:3', shape('3x3:misere:3')],
    ['3×3', shape('3×3')],
    ['٣x٣', shape('٣x٣')],
    ['\ufeff3x3', shape('\ufeff3x3')], // JavaScript's trim() would take it off; Python's strip() does not
    ['0x3', 'rows must be a positive integer, got 0'],
    ['3x0', 'cols must be a positive integer, got 0'],
    ['3x3:0', 'k must be a positive integer, got 0'],
    ['3x3:4', 'k=4 does not fit on a 3x3 board'],
    ['5x5', 'board 5x5 has 25 cells; at most 20'],
  ]) {
    assert.throws(() => parseRules(text), (error) => {
      assert.ok(error instanceof RulesError, error);
      assert.equal(error.message, message);
      return true;
    }, JSON.stringify(text));
    assert.throws(() => new Position('.........', text), RulesError);
  }
  assert.throws(() => parseRules({ rows: 3, cols: 3, k: 3 }), { name: 'TypeError', message: 'rules text must be a string such as "3x4:3", got an object' });
});

test('Position and Position.empty take the rules as text', () => {
  const position = new Position('....', '2x2:2');
  assert.deepEqual(position.rules, { rows: 2, cols: 2, k: 2, misere: false });
  assert.deepEqual(position.play(0).play(1).play(2).outcome(), { winner: 'X', line: [0, 2], completedBy: 'X' });
  assert.deepEqual(Position.empty('3x3:misere').rules, { rows: 3, cols: 3, k: 3, misere: true });
  assert.equal(Position.empty('3x4:3', 'O').board, '.'.repeat(12));
  assert.equal(Position.empty('3x4:3', 'O').first, 'O');
  assert.deepEqual(new Position('XXXOO....', '3x3:misere').outcome().winner, 'O');
  // the rules read from text are the rules given as an object: a reader takes either
  assert.deepEqual(book.bestMoves(new Position('X...O...X', '3x3')), [1, 3, 5, 7]);
  assert.throws(() => Position.empty('3x3:3:misery'), RulesError);
});

// ---------------------------------------------------------------- sequences

test('every list of cells returned is a plain array', () => {
  const evaluation = book.evaluate(XOX);
  const lists = [
    XOX.legalMoves(), new Position('XXXOO....').legalMoves(), book.bestMoves(XOX), book.optimalMoves(XOX),
    evaluation.optimal, ...evaluation.tiers, ...LEVELS.map((level) => book.candidates(evaluation, level)),
  ];
  for (const list of lists) {
    assert.ok(Array.isArray(list) && Object.getPrototypeOf(list) === Array.prototype, String(list));
    assert.ok(list.every((cell) => Number.isInteger(cell)));
  }
});

// ---------------------------------------------------------------- the names in the types

test('index.d.ts: Outcome is the game\'s result, MoveValue a move\'s value, GameOutcome deprecated', () => {
  const types = readFileSync(new URL('./index.d.ts', import.meta.url), 'utf8');
  const body = (name) => types.match(new RegExp(`export interface ${name} \\{([^}]*)\\}`))?.[1] ?? '';
  assert.match(body('Outcome'), /winner: Mark \| null;[^]*line: readonly number\[\];/);
  assert.match(body('MoveValue'), /value: Value;[^]*plies: number;/);
  assert.match(types, /\/\*\* @deprecated[^*]*\*\/\nexport type GameOutcome = Outcome;/);
  assert.match(types, /outcome\(\): Outcome \| null;/);
  assert.match(types, /outcome\(cell: number\): MoveValue;/);
});

/** Every position reachable from `start` (finished ones too), by board. */
function allPositions(start) {
  const found = new Map([[start.board, start]]);
  const stack = [start];
  while (stack.length) {
    const position = stack.pop();
    for (const cell of position.legalMoves()) {
      const next = position.play(cell);
      if (!found.has(next.board)) {
        found.set(next.board, next);
        stack.push(next);
      }
    }
  }
  return found;
}

test('candidates takes an evaluation: a board string is a TypeError that says what to pass', () => {
  assert.throws(() => book.candidates('X...O...X', 'perfect'), {
    name: 'TypeError',
    message: 'candidates takes an evaluation (reader.evaluate(board)), got a string',
  });
  assert.throws(() => book.candidates(null, 'hard'), TypeError);
  assert.deepEqual(book.candidates(book.evaluate('X...O...X'), 'hard'), [1, 3, 5, 7]);
});
