// A test-only writer of version-2 books (docs/book-format.md; /work/v2-spec.md until the format
// document is updated): a plain memoized negamax over canonical positions, written apart from
// the reader so that the reader's proof checks it rather than agrees with itself. It is NOT the
// project's generator (generator/, Python): it writes no trap order (every optimal move is its
// own tier, in cell order) and no trap rates, and it is sized for the tests (3x3, 2x4, 3x4) and
// for one measured stress run (4x4, k = 4, about a minute and a few hundred MB).
//
//   node clients/js/make-v2-book.mjs ROWS COLS K [--misere] > book.json
//
// A position is solved as a game result, not as the file's score: the side to move gets
// {value: 1 | 0 | -1, plies}, preferring the fastest win, then a draw, then the slowest loss;
// only when the book is written is that packed into the file's score (win in p plies: N + 1 - p,
// loss: -(N + 1 - p), draw: 0, N = cells).
import { argv, stdout } from 'node:process';

/** The winning lines: right, down, down-right, down-left from each start cell in reading order. */
function winningLines(rows, cols, k) {
  const lines = [];
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const r2 = r + (k - 1) * dr;
        const c2 = c + (k - 1) * dc;
        if (r2 < rows && c2 >= 0 && c2 < cols) lines.push([...Array(k).keys()].map((i) => (r + i * dr) * cols + c + i * dc));
      }
    }
  }
  return lines;
}

/** The board's symmetries in the file's order: [transpose (square only)] x flip rows x flip columns, repeats dropped. */
function symmetries(rows, cols) {
  const out = [];
  for (const t of rows === cols ? [0, 1] : [0]) {
    for (const fr of [0, 1]) {
      for (const fc of [0, 1]) {
        const perm = [];
        for (let r = 0; r < rows; r++) {
          for (let c = 0; c < cols; c++) {
            let sr = t ? c : r;
            let sc = t ? r : c;
            if (fr) sr = rows - 1 - sr;
            if (fc) sc = cols - 1 - sc;
            perm.push(sr * cols + sc);
          }
        }
        const name = `${t ? 'transpose' : 'identity'}${fr ? ', flip rows' : ''}${fc ? ', flip columns' : ''}`;
        if (!out.some((s) => s.perm.join() === perm.join())) out.push({ name, perm });
      }
    }
  }
  return out;
}

/** The mark to move: X when the marks are level. */
function moverOf(board) {
  let x = 0;
  let o = 0;
  for (let i = 0; i < board.length; i++) {
    if (board[i] === 'X') x++;
    else if (board[i] === 'O') o++;
  }
  return x === o ? 'X' : 'O';
}

/** The smallest image of `board` under `perms` (its canonical key). */
function canonicalOf(board, perms) {
  let best = board;
  for (const perm of perms) {
    let image = '';
    for (const c of perm) image += board[c];
    if (image < best) best = image;
  }
  return best;
}

const better = (a, b) => {
  // Is result a better than b for the side choosing? Fastest win, then draw, then slowest loss.
  if (a.value !== b.value) return a.value > b.value;
  return a.value > 0 ? a.plies < b.plies : a.value < 0 && a.plies > b.plies;
};

/**
 * Solve every position reachable from the empty board. Returns the canonical unfinished
 * positions (string -> {value, plies}), and the number of canonical positions seen, finished
 * ones included.
 */
export function solve({ rows, cols, k, misere = false }) {
  const cells = rows * cols;
  const lines = winningLines(rows, cols, k);
  const perms = symmetries(rows, cols).map((s) => s.perm);
  const solved = new Map();
  const finished = new Set();
  const canonical = (board) => canonicalOf(board, perms);
  const result = (board) => {
    const key = canonical(board);
    const known = solved.get(key);
    if (known) return known;
    const mover = moverOf(board);
    let best = null;
    for (let c = 0; c < cells; c++) {
      if (board[c] !== '.') continue;
      const next = board.slice(0, c) + mover + board.slice(c + 1);
      let outcome;
      if (lines.some((line) => line.every((i) => next[i] === mover))) {
        finished.add(canonical(next));
        outcome = { value: misere ? -1 : 1, plies: 1 };
      } else if (!next.includes('.')) {
        finished.add(canonical(next));
        outcome = { value: 0, plies: 1 };
      } else {
        const after = result(next);
        outcome = { value: -after.value || 0, plies: after.plies + 1 }; // || 0: no -0 for a draw
      }
      if (best === null || better(outcome, best)) best = outcome;
    }
    solved.set(key, best);
    return best;
  };
  result('.'.repeat(cells));
  return { solved, canonicalPositions: solved.size + finished.size };
}

/** The file's score of a result. */
const pack = ({ value, plies }, cells) => (value === 0 ? 0 : value * (cells + 1 - plies));

/**
 * A version-2 book as compact JSON text with sorted keys and a final newline; `solution` is
 * solve(rules)'s, when the caller has it already.
 */
export function makeBook({ rows, cols, k, misere = false }, solution = solve({ rows, cols, k, misere })) {
  const cells = rows * cols;
  const lines = winningLines(rows, cols, k);
  const perms = symmetries(rows, cols).map((s) => s.perm);
  const { solved, canonicalPositions } = solution;
  const entries = {};
  for (const key of [...solved.keys()].sort()) {
    // The optimal moves, found again from the successors' results, one tier each.
    const mover = moverOf(key);
    const best = solved.get(key);
    const optimal = [];
    for (let c = 0; c < cells; c++) {
      if (key[c] !== '.') continue;
      const next = key.slice(0, c) + mover + key.slice(c + 1);
      let outcome;
      if (lines.some((line) => line.every((i) => next[i] === mover))) outcome = { value: misere ? -1 : 1, plies: 1 };
      else if (!next.includes('.')) outcome = { value: 0, plies: 1 };
      else {
        const after = solved.get(canonicalOf(next, perms));
        outcome = { value: -after.value || 0, plies: after.plies + 1 }; // || 0: no -0 for a draw
      }
      if (outcome.value === best.value && outcome.plies === best.plies) optimal.push(c);
    }
    entries[key] = `${pack(best, cells)} ${optimal.join(' ')}`;
  }
  const doc = {
    canonical: 'min-image',
    counts: { canonical_positions: canonicalPositions, entries: solved.size },
    entries,
    format: 'tictactoe-book',
    rules: { cells, cols, empty: '.', first: 'X', k, lines, misere, rows, second: 'O' },
    symmetries: symmetries(rows, cols),
    version: 2,
  };
  return `${JSON.stringify(doc)}\n`;
}

if (import.meta.url === `file://${argv[1]}`) {
  const [rows, cols, k] = argv.slice(2, 5).map(Number);
  if (![rows, cols, k].every((n) => Number.isInteger(n) && n >= 1) || rows * cols > 16) {
    console.error('usage: node clients/js/make-v2-book.mjs ROWS COLS K [--misere] > book.json');
    process.exit(2);
  }
  stdout.write(makeBook({ rows, cols, k, misere: argv.includes('--misere') }));
}
