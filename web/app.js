// The page: loads the book through the JavaScript reader and plays from it.
// Query parameters: ?book=URL (another book file), ?seed=N (reproducible computer choices).
//
// The reader numbers cells 0 to 8 (its answers and arguments); everything the page shows a
// person numbers them 1 to 9, as ttt-play and the README do: cell c is shown as c + 1.
import { loadBook } from '../clients/js/tictactoe-book.js';
import { analyse, cellList, chart, other, turningPoints, VALUE_WORDS, words } from './analysis.js';

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

const state = {
  book: null,
  board: '.........',
  moves: [],
  first: 'X',
  human: 'X',
  level: 'perfect',
  hints: false,
  tally: { won: 0, drawn: 0, lost: 0 },
  counted: false,
  analysing: false,
  step: 0, // the position the analysis shows: 0 (empty board) to moves.length
};

// The mark that made move i (counting from 0), and the mark to move now.
const moverOf = (i) => (i % 2 === 0 ? state.first : other(state.first));
const turn = () => moverOf(state.moves.length);
const lastHumanMove = () => state.moves.map((_, i) => i).filter((i) => moverOf(i) === state.human).pop() ?? -1;
const lastComputerMove = () => {
  const i = state.moves.map((_, j) => j).filter((j) => moverOf(j) !== state.human).pop();
  return i === undefined ? -1 : state.moves[i];
};

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

// The computer's move, if it is its turn; returns the sentence saying so ('' if none).
function computerMove() {
  if (isOver() || turn() === state.human) return '';
  const cell = state.book.chooseMove(state.board, { level: state.level, random, first: state.first });
  place(cell);
  return `The computer (${other(state.human)}) plays ${cell + 1}.`;
}

let lastAnnouncement = '';
function announce(text) {
  lastAnnouncement = text;
}

// A note under the settings: what became of a changed setting. Empty text hides it.
function note(text) {
  $('note').textContent = text;
  $('note').hidden = !text;
}

// Feedback for a key that cannot be played: the status says why, the cell (if any) shakes.
function refuse(text, cell = -1) {
  announce(text);
  render();
  const button = $('board').children[cell];
  if (button) {
    button.classList.remove('refused');
    void button.offsetWidth; // restart the animation on a second refusal
    button.classList.add('refused');
    setTimeout(() => button.classList.remove('refused'), 400);
  }
}

function render() {
  const over = isOver();
  const answer = !over && state.hints && turn() === state.human ? state.book.evaluate(state.board, { first: state.first }) : null;
  const cells = $('board').children;
  const won = winner(state.board);
  const line = won ? state.book.rules.lines.find((l) => l.every((c) => state.board[c] === won)) : [];
  const last = lastComputerMove();
  for (let c = 0; c < 9; c++) {
    const button = cells[c];
    const mark = state.board[c];
    const isLast = c === last;
    button.className = `cell ${mark === '.' ? 'free' : mark}${isLast ? ' last' : ''}${line.includes(c) ? ' won' : ''}`;
    button.disabled = over || mark !== '.' || turn() !== state.human;
    // The name holds the visible words in order (WCAG 2.5.3, axe's label-content-name-mismatch):
    // "Cell 3: win in 3 if you play here", "Cell 5: O, last move, by the computer".
    let label = `Cell ${c + 1}`;
    button.replaceChildren();
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = String(c + 1);
    button.append(num, ' '); // the space keeps "2 draw" two words (a flex box does not show it)
    if (mark === '.') {
      if (answer) {
        const hint = document.createElement('span');
        const { text, kind } = words(answer.outcome(c));
        hint.className = `hint ${kind}`;
        hint.textContent = text;
        button.append(hint);
        label += `: ${text} if you play here`;
      } else {
        label += ': empty';
      }
    } else {
      button.append(mark);
      label += `: ${mark}`;
      if (isLast) {
        const tag = document.createElement('span');
        tag.className = 'tag';
        tag.textContent = 'last move';
        button.append(' ', tag);
        label += ', last move, by the computer';
      }
      if (line.includes(c)) label += ', in the winning line';
    }
    button.setAttribute('aria-label', label);
  }
  $('legend').hidden = !state.hints;
  $('hint').setAttribute('aria-pressed', String(state.hints));
  $('undo').disabled = lastHumanMove() < 0;
  let status;
  if (over) {
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
  renderAnalysis();
}

// ---------------------------------------------------------------- the analysis view

function renderAnalysis() {
  $('analyse').setAttribute('aria-expanded', String(state.analysing));
  $('analysis').hidden = !state.analysing;
  if (!state.analysing) return;
  const positions = analyse(state.book, state.moves, { first: state.first, human: state.human });
  const n = state.moves.length;
  state.step = Math.min(state.step, n);
  const at = positions[state.step];
  $('step-label').textContent = state.step === 0 ? `Start: 0 of ${n}` : `Move ${state.step} of ${n}`;
  $('step-start').disabled = $('step-back').disabled = state.step === 0;
  $('step-end').disabled = $('step-forward').disabled = state.step === n;

  const who = (mark) => (mark === state.human ? 'you' : 'the computer');
  const board = $('analysis-board');
  board.replaceChildren();
  const line = at.winner ? state.book.rules.lines.find((l) => l.every((c) => at.board[c] === at.winner)) : [];
  for (let c = 0; c < 9; c++) {
    const item = document.createElement('li');
    const mark = at.board[c];
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = String(c + 1);
    item.append(num);
    if (mark !== '.') {
      item.className = `${mark}${line.includes(c) ? ' won' : ''}`;
      item.append(` ${mark}`);
    } else if (at.outcomes) {
      const { text, kind } = words(at.outcomes[c]);
      const span = document.createElement('span');
      span.className = kind;
      span.textContent = ` ${text}`;
      item.className = 'free';
      item.append(span);
    }
    if (c === at.played) {
      item.classList.add('played');
      const tag = document.createElement('span');
      tag.className = 'tag';
      tag.textContent = ` (played: ${at.mover})`;
      item.append(tag);
    }
    board.append(item);
  }

  let detail;
  if (at.over) {
    detail = at.winner === null ? 'The game ended in a draw.' : `${at.winner} won: ${who(at.winner)} ${at.winner === state.human ? 'win' : 'wins'}.`;
  } else {
    const outcomeWords = (cell) => words(at.outcomes[cell]).text;
    detail = `${at.mover} to move (${who(at.mover)}); each free cell shows what ${at.mover} gets by playing there.`;
    if (at.played !== null) {
      const best = at.optimal.includes(at.played);
      detail += ` ${at.mover} played ${at.played + 1}: ${outcomeWords(at.played)}`;
      detail += best ? ', a best move.' : `, where ${cellList(at.optimal)} gave ${outcomeWords(at.optimal[0])}.`;
    } else {
      detail += ' Not played yet.';
    }
  }
  $('step-detail').textContent = detail;
  $('chart').replaceChildren(chart(positions, state.step, { cells: state.book.cells, human: state.human }));

  const turning = turningPoints(positions);
  const list = $('turning-points');
  list.replaceChildren();
  for (const t of turning) {
    const item = document.createElement('li');
    item.textContent = `Move ${t.move}: ${t.mover} (${who(t.mover)}) played ${t.cell + 1}, turning “${VALUE_WORDS[t.from].text}” into “${VALUE_WORDS[t.to].text}”; ${t.best.length > 1 ? 'any of ' : ''}${cellList(t.best)} would have kept “${VALUE_WORDS[t.from].text}”.`;
    list.append(item);
  }
  if (!turning.length && n) {
    const item = document.createElement('li');
    item.textContent = `No move changed the game's value: it stayed “${VALUE_WORDS[positions[0].you].text}” throughout.`;
    list.append(item);
  }
}

function stepTo(step) {
  state.step = Math.max(0, Math.min(step, state.moves.length));
  renderAnalysis();
  // A step button that has just been disabled would drop the keyboard focus: keep it in the panel.
  const focused = document.activeElement;
  if (focused instanceof HTMLButtonElement && focused.disabled && $('analysis').contains(focused)) {
    $(['step-start', 'step-back'].includes(focused.id) ? 'step-forward' : 'step-back').focus();
  }
}

// ---------------------------------------------------------------- actions

function newGame() {
  state.human = $('mark').value;
  state.first = $('first').value;
  state.level = $('level').value;
  state.board = '.........';
  state.moves = [];
  state.counted = false;
  $('new-game').classList.remove('attention');
  note('');
  const opening = computerMove();
  announce(`New game: you are ${state.human}, ${state.first} moves first, level ${state.level}. ${opening}`.trim());
  state.step = state.moves.length;
  render();
}

function play(cell) {
  if (isOver() || turn() !== state.human || state.board[cell] !== '.') return;
  const following = state.step === state.moves.length;
  place(cell);
  announce(computerMove() || `You play ${cell + 1}.`);
  if (following) state.step = state.moves.length;
  render();
}

// A key or a click that names a cell: played, or refused with a reason.
function tryCell(cell) {
  if (isOver()) return refuse('The game is over: press New game to play again.');
  if (state.board[cell] !== '.') return refuse(`Cell ${cell + 1} is taken (${state.board[cell]}): choose a free cell.`, cell);
  return play(cell);
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
  state.step = state.moves.length;
  announce('Undone.');
  render();
}

// A setting changed between games applies at once; during a game the level applies from the
// computer's next move, and the mark or who moves first waits for New game, with a note.
function settingChanged(event) {
  const started = lastHumanMove() >= 0 && !isOver();
  if (event.target.id === 'level') {
    state.level = $('level').value;
    note(started ? `Level changed to ${state.level}: the computer plays at that level from its next move.` : `Level: ${state.level}.`);
    return;
  }
  if (lastHumanMove() < 0) {
    newGame(); // nothing of yours to lose: start over with the new sides
    note(`New game with the change: you are ${state.human}, ${state.first} moves first.`);
    return;
  }
  const what = event.target.id === 'mark' ? `You play ${$('mark').value}` : `${$('first').value} moves first`;
  note(`${what} from the next game: press New game. This game goes on (you are ${state.human}, ${state.first} moved first).`);
  $('new-game').classList.add('attention');
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

function onKey(event) {
  if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
  if (state.analysing && $('analysis').contains(event.target) && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    stepTo(state.step + (event.key === 'ArrowLeft' ? -1 : 1));
    event.preventDefault();
    return;
  }
  if (event.key === '0') {
    refuse('There is no cell 0: the cells are 1 to 9.');
  } else if (/^[1-9]$/.test(event.key)) {
    const cell = Number(event.key) - 1;
    tryCell(cell);
    const focusTarget = $('board').children[cell];
    if (focusTarget && !focusTarget.disabled) focusTarget.focus();
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
  for (const id of ['mark', 'first', 'level']) $(id).addEventListener('change', settingChanged);
  $('hint').addEventListener('click', () => {
    state.hints = !state.hints;
    render();
  });
  $('undo').addEventListener('click', undo);
  $('analyse').addEventListener('click', () => {
    state.analysing = !state.analysing;
    state.step = state.moves.length;
    render();
  });
  $('step-start').addEventListener('click', () => stepTo(0));
  $('step-back').addEventListener('click', () => stepTo(state.step - 1));
  $('step-forward').addEventListener('click', () => stepTo(state.step + 1));
  $('step-end').addEventListener('click', () => stepTo(state.moves.length));
  document.addEventListener('keydown', onKey);
  newGame();
  document.body.dataset.ready = 'yes';
}

start();
