// The analysis of a game played from the book, computed in the page (no server): every
// position of the game with each free cell's outcome for the side to move, and the game's value
// for the person after each move, drawn as a small inline SVG chart.
//
// Cells are the reader's: 0 to cells - 1 in reading order. Everything a person reads says c + 1.
// Any book's rules: its board size and lines, and misère (completing a line loses).

import { Position } from '../clients/js/tictactoe-book.js';

const SVG = 'http://www.w3.org/2000/svg';
export const other = (mark) => (mark === 'X' ? 'O' : 'X');

/** An outcome {value, plies} in words, from the view of the side that moves, and its kind (a hint's). */
export function words(outcome) {
  if (outcome.value === 0) return { text: 'draw', kind: 'draw' };
  return outcome.value > 0
    ? { text: `win in ${outcome.plies}`, kind: 'win' }
    : { text: `loss in ${outcome.plies}`, kind: 'loss' };
}

/**
/**
 * An outcome {value, plies} of the side that moves, in words for you and its kind for you (the
 * analysis's): "you win in 3", "draw", "you lose in 2". `yours`: whether you are the side that
 * moves (else its win is your loss). The chart and the colours say the same: what it means for you.
 */
export function forYou(outcome, yours) {
  const value = yours ? outcome.value : -outcome.value;
  if (value === 0) return { text: 'draw', kind: 'draw' };
  return value > 0
    ? { text: `you win in ${outcome.plies}`, kind: 'win' }
    : { text: `you lose in ${outcome.plies}`, kind: 'loss' };
}

/**
 * How a Position stands: `over`; `owner`, the mark that filled a line (null if none) and that
 * `line`'s cells; `winner`, null for a draw or a game in progress, else by the rules: the
 * owner, or under misère the other mark.
 */
export function standingOf(position) {
  const ended = position.outcome();
  const line = ended === null ? [] : [...ended.line];
  const owner = line.length ? position.board[line[0]] : null;
  return { over: ended !== null, owner, line, winner: ended === null ? null : ended.winner };
}

/** Cells as a person reads them, all of them: "1, 5 and 9". */
export function cellsAnd(cells) {
  const names = cells.map((c) => String(c + 1));
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * A finished game's result in words (`at`: a `standingOf` that is over), for the person playing
 * `human`, said once (ttt-play's tictactoe_book.apps.session.ending): who won and, under misère rules,
 * who completed which line, which decides it.
 */
export function resultWords(book, at, human) {
  if (at.winner === null) return 'Draw.';
  const won = at.winner === human;
  if (!book.rules.misere) return won ? 'You win!' : 'The computer wins.';
  const who = at.owner === human ? 'You' : 'The computer';
  return `${who} completed the line ${cellsAnd(at.line)}, so you ${won ? 'win' : 'lose'} (misère).`;
}

/** The game's value for you (1, 0, -1) in words, and its kind. */
export const VALUE_WORDS = { 1: { text: 'you win', kind: 'win' }, 0: { text: 'draw', kind: 'draw' }, '-1': { text: 'you lose', kind: 'loss' } };

/**
 * Every position of the game: steps 0 (the empty board) to moves.length. Each has the board,
 * the mark to move (null once the game is over), its `standingOf` (over, owner, line, winner: the
 * winner is the other mark under misère rules), each free cell's outcome for the
 * side to move (null for a taken cell), the optimal cells, the cell played from it (null at
 * the last step) and `you`: the value for the person (`human`) with best play from there.
 */
export function analyse(book, moves, { first, human }) {
  const positions = [];
  let game = Position.empty(book.rules, first);
  for (let step = 0; step <= moves.length; step++) {
    const { board } = game;
    const at = standingOf(game);
    const { over, winner } = at;
    const mover = game.turn;
    const position = { step, board, mover: over ? null : mover, ...at, outcomes: null, optimal: [], played: moves[step] ?? null };
    if (over) {
      position.you = winner === null ? 0 : winner === human ? 1 : -1;
    } else {
      const answer = book.evaluate(board, { first });
      position.outcomes = answer.scores.map((score, cell) => (score === null ? null : answer.outcome(cell)));
      position.optimal = answer.optimal;
      position.you = mover === human ? answer.value : -answer.value;
    }
    positions.push(position);
    if (step < moves.length) game = game.play(moves[step]);
  }
  return positions;
}

/**
 * The moves that changed the game's value for you: where it was lost (or won). Each is
 * {move (1-based), mover, cell, from, to, best}: the value for you before and after the move,
 * and the cells that would have kept the value.
 */
export function turningPoints(positions) {
  const points = [];
  for (let i = 1; i < positions.length; i++) {
    const before = positions[i - 1];
    if (positions[i].you !== before.you) {
      points.push({ move: i, mover: before.mover, cell: before.played, from: before.you, to: positions[i].you, best: before.optimal });
    }
  }
  return points;
}

/** Cells as a person reads them: "1, 3 or 9". */
export function cellList(cells) {
  const names = cells.map((c) => String(c + 1));
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

function svg(name, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== null) element.textContent = text;
  return element;
}

/**
 * The chart: the value for you after each move (x: moves 0 to cells, y: you lose / draw /
 * you win), the current step ringed. Each point carries data-step and data-value, and a title.
 */
export function chart(positions, current, { cells, human }) {
  const width = 360;
  const height = 150;
  const left = 78;
  const right = width - 14;
  const x = (step) => left + ((right - left) * step) / cells;
  const y = (value) => ({ 1: 22, 0: 66, '-1': 110 })[value];
  const summary = positions.map((p) => `${p.step === 0 ? 'start' : `move ${p.step}`}: ${VALUE_WORDS[p.you].text}`).join('; ');
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `The game's value for you (${human}) after each move. ${summary}.` });
  for (const value of [1, 0, -1]) {
    root.append(svg('line', { class: 'axis', x1: left - 6, x2: right, y1: y(value), y2: y(value) }));
    root.append(svg('text', { x: left - 12, y: y(value) + 4, 'text-anchor': 'end' }, VALUE_WORDS[value].text));
  }
  const every = cells > 12 ? 2 : 1; // 16 cells: every other number, so two-digit labels do not touch
  for (let step = 0; step <= cells; step += every) {
    root.append(svg('text', { x: x(step), y: height - 12, 'text-anchor': 'middle' }, String(step)));
  }
  root.append(svg('text', { x: left - 12, y: height - 12, 'text-anchor': 'end' }, 'move'));
  const points = positions.map((p) => `${x(p.step)},${y(p.you)}`).join(' ');
  root.append(svg('polyline', { class: 'line', points }));
  for (const p of positions) {
    const dot = svg('circle', { class: `point ${VALUE_WORDS[p.you].kind}`, cx: x(p.step), cy: y(p.you), r: 5, 'data-step': p.step, 'data-value': p.you });
    const when = p.step === 0 ? 'At the start' : `After move ${p.step} (${positions[p.step - 1].mover} at ${positions[p.step - 1].played + 1})`;
    dot.append(svg('title', {}, `${when}: ${VALUE_WORDS[p.you].text}`));
    root.append(dot);
  }
  const at = positions[current];
  root.append(svg('circle', { class: 'current', cx: x(at.step), cy: y(at.you), r: 9, 'data-step': at.step }));
  return root;
}
