// The page: loads the book through the JavaScript reader and plays from it.
// Query parameters: ?book=URL (another book file), ?seed=N (reproducible computer choices).
import { loadBook } from '../clients/js/tictactoe-book.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const bookUrl = params.get('book') || new URL('../book/tictactoe.json', import.meta.url).href;

// mulberry32: a tiny seeded generator, so a test (or a teacher) can replay the same game.
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = params.has('seed') ? seeded(Number(params.get('seed'))) : Math.random;

const other = (mark) => (mark === 'X' ? 'O' : 'X');
const state = { book: null, board: '.........', moves: [], first: 'X', human: 'X', level: 'perfect', hints: false, tally: { won: 0, drawn: 0, lost: 0 }, counted: false };

// The mark that made move i (counting from 0), and the mark to move now.
const moverOf = (i) => (i % 2 === 0 ? state.first : other(state.first));
const turn = () => moverOf(state.moves.length);
const lastHumanMove = () => state.moves.map((_, i) => i).filter((i) => moverOf(i) === state.human).pop() ?? -1;

function winner(board) {
  const won = state.book.winners(board);
  return won.size ? [...won][0] : null;
}

function isOver() {
  return winner(state.board) !== null || !state.board.includes('.');
}

function place(cell) {
  state.board = state.board.slice(0, cell) + turn() + state.board.slice(cell + 1);
  state.moves.push(cell);
}

function computerMove() {
  if (isOver() || turn() === state.human) return;
  const cell = state.book.chooseMove(state.board, { level: state.level, random, first: state.first });
  place(cell);
  announce(`The computer (${other(state.human)}) plays ${cell + 1}.`);
}

function words(outcome) {
  if (outcome.value === 0) return { text: 'draw', kind: 'draw' };
  return outcome.value > 0 ? { text: `win in ${outcome.plies}`, kind: 'win' } : { text: `loss in ${outcome.plies}`, kind: 'loss' };
}

let lastAnnouncement = '';
function announce(text) {
  lastAnnouncement = text;
}

function render() {
  const over = isOver();
  const answer = !over && state.hints && turn() === state.human ? state.book.evaluate(state.board, { first: state.first }) : null;
  const cells = $('board').children;
  const won = winner(state.board);
  const line = won ? state.book.rules.lines.find((l) => l.every((c) => state.board[c] === won)) : [];
  for (let c = 0; c < 9; c++) {
    const button = cells[c];
    const mark = state.board[c];
    button.className = `cell ${mark === '.' ? 'free' : mark}${line.includes(c) ? ' won' : ''}`;
    button.disabled = over || mark !== '.' || turn() !== state.human;
    let label = `Cell ${c + 1}, ${mark === '.' ? 'empty' : mark}`;
    button.innerHTML = '';
    if (mark === '.') {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = String(c + 1);
      button.append(num);
      if (answer) {
        const hint = document.createElement('span');
        const { text, kind } = words(answer.outcome(c));
        hint.className = `hint ${kind}`;
        hint.textContent = text;
        button.append(hint);
        label += `, hint: ${text}`;
      }
    } else {
      button.append(mark);
    }
    button.setAttribute('aria-label', label);
  }
  $('legend').hidden = !state.hints;
  $('hint').setAttribute('aria-pressed', String(state.hints));
  $('undo').disabled = lastHumanMove() < 0;
  let status;
  if (over) {
    const won = winner(state.board);
    status = won === null ? 'Draw.' : won === state.human ? `${won} wins: you win!` : `${won} wins: the computer wins.`;
    if (!state.counted) {
      state.counted = true;
      if (won === null) state.tally.drawn++;
      else if (won === state.human) state.tally.won++;
      else state.tally.lost++;
    }
  } else {
    status = `Your move (${state.human}).`;
  }
  $('status').textContent = [lastAnnouncement, status].filter(Boolean).join(' ');
  $('status').dataset.over = String(over);
  $('tally').textContent = `You: ${state.tally.won} won, ${state.tally.drawn} drawn, ${state.tally.lost} lost`;
}

function newGame() {
  state.human = $('mark').value;
  state.first = $('first').value;
  state.level = $('level').value;
  state.board = '.........';
  state.moves = [];
  state.counted = false;
  announce(`New game: you are ${state.human}, ${state.first} moves first, level ${state.level}.`);
  computerMove();
  render();
}

function play(cell) {
  if (isOver() || turn() !== state.human || state.board[cell] !== '.') return;
  place(cell);
  announce(`You play ${cell + 1}.`);
  computerMove();
  render();
}

function undo() {
  const last = lastHumanMove();
  if (last < 0) return;
  if (isOver() && state.counted) {
    const won = winner(state.board);
    if (won === null) state.tally.drawn--;
    else if (won === state.human) state.tally.won--;
    else state.tally.lost--;
    state.counted = false;
  }
  const kept = state.moves.slice(0, last);
  state.board = '.........';
  state.moves = [];
  for (const cell of kept) place(cell);
  announce('Undone.');
  render();
}

function buildBoard() {
  const board = $('board');
  for (let c = 0; c < 9; c++) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.cell = String(c);
    button.addEventListener('click', () => play(c));
    board.append(button);
  }
}

async function start() {
  try {
    const response = await fetch(bookUrl);
    if (!response.ok) throw new Error(`${bookUrl}: HTTP ${response.status}`);
    // The bytes, not response.text(): that would drop a byte-order mark and patch invalid UTF-8,
    // which the book format refuses (docs/book-format.md, step 3). A BookError's message ends
    // with its reason code, e.g. "[json]".
    state.book = loadBook(new Uint8Array(await response.arrayBuffer()), { source: bookUrl });
  } catch (error) {
    const box = $('error');
    box.textContent = `The book could not be loaded, so the game cannot start. ${error.message}`;
    box.hidden = false;
    $('new-game').disabled = true;
    document.body.dataset.ready = 'error';
    return;
  }
  buildBoard();
  $('game').hidden = false;
  $('settings').addEventListener('submit', (event) => {
    event.preventDefault();
    newGame();
  });
  $('hint').addEventListener('click', () => {
    state.hints = !state.hints;
    render();
  });
  $('undo').addEventListener('click', undo);
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/^[1-9]$/.test(event.key)) {
      play(Number(event.key) - 1);
      const focusTarget = $('board').children[Number(event.key) - 1];
      if (focusTarget && !focusTarget.disabled) focusTarget.focus();
    }
  });
  newGame();
  document.body.dataset.ready = 'yes';
}

start();
