// The page: loads a book through the JavaScript reader and plays from it, on the book's own
// rules: its rows × cols board, its lines, normal or misère.
// Query parameters: ?book=URL (another book file, or a book by parts: its folder's URL, ending in
// '/', or its manifest.json's), ?seed=N (reproducible computer choices), ?against=random (the
// packaged books: play to beat a random player rather than a novice).
//
// A whole book answers at once; a book by parts (web/byparts.js) reads the parts an answer needs
// first, so the computer's move is awaited, and what the board shows (the hints, the analysis) is
// drawn once the answers it asks for are read.
//
// The reader numbers cells 0 to cells - 1 (its answers and arguments); everything the page shows
// a person numbers them 1 to cells, as ttt-play and the README do: cell c is shown as c + 1.
import { BookError, OPPONENTS, Position, Rng, fetchPartsBook, loadBookCached, opponentNamed, opponentPlays, readBookResponse } from '../clients/js/tictactoe-book.js';
import { PACKAGED_BOOKS } from '../clients/js/packaged.js';
import { analyse, cellList, chart, forYou, other, resultWords, standingOf, turningPoints, VALUE_WORDS } from './analysis.js';
import { moveHints, why } from './hints.js';
import { actionOf, arrowTarget, keysHelp, pendingWords, typeDigit } from './keys.js';
import { KnownAnswers, Unread, isPartsBook, settled } from './byparts.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const DEFAULT_BOOK = '../book/tictactoe.json';
const bookParam = params.get('book') || DEFAULT_BOOK;
const bookUrl = new URL(bookParam, location.href).href;
const byParts = isPartsBook(bookUrl);

// ?seed=N: the reader's seeded generator, so a test (or a teacher) can replay the same game, the
// one ttt-play --seed N and every other language play (taken modulo 2^32, as the page always did).
const rng = params.has('seed') ? new Rng(Number(params.get('seed')) >>> 0) : undefined;


const state = {
  book: null, // the reader of a whole book, or a book by parts' KnownAnswers (web/byparts.js)
  rankings: new Map(), // opponent -> the book ranked against it: state.book's own, and its twin once loaded
  against: OPPONENTS[0].name, // whom the perfect level plays to beat
  // The game: its Position after each move (the reader's: whose turn, a move played, who won),
  // from the empty board on, and the cells played.
  positions: [],
  moves: [],
  human: 'X',
  level: 'perfect',
  hints: false,
  walks: new Map(), // the hint's play-outs (web/hints.js), kept for the game's later hints
  hintCache: new Map(), // board -> its hint, for this game
  hintLimits: new Map(), // board -> the limits of its hint's walks, kept while it is worked out (hints.js)
  tally: { won: 0, drawn: 0, lost: 0 },
  counted: false,
  analysing: false,
  step: 0, // the position the analysis shows: 0 (empty board) to moves.length
  cursor: 0, // the board's cell that takes the keyboard focus (arrow keys move it)
  pending: '', // digits typed that wait for one more (keys.js)
};

// The game as it stands, the mark that made move i (counting from 0), and the mark to move now:
// each asked of the game's Position.
const game = () => state.positions.at(-1);
const moverOf = (i) => state.positions[i].turn;
const turn = () => game().turn;
const lastHumanMove = () => state.moves.map((_, i) => i).filter((i) => moverOf(i) === state.human).pop() ?? -1;
const who = (mark) => (mark === state.human ? 'you' : 'the computer');

// The book the computer plays from: the one ranked against the opponent chosen (its moves, and
// the hint's, which marks the move the computer would play in your place).
const playing = () => state.rankings.get(state.against) ?? state.book;
const isOver = () => game().isOver;

function place(cell) {
  state.positions.push(game().play(cell));
  state.moves.push(cell);
}

// The computer's move, if it is its turn; resolves to the sentence saying so ('' if none), or
// to null when there is none to say: the game changed while a book by parts was read for it (New
// game, Undo), or the book could not be read (the page says so). A whole book's move is placed
// before anything else runs: its answer is not waited for.
async function computerMove() {
  if (isOver() || turn() === state.human) return '';
  const before = game();
  let cell;
  busy(1);
  try {
    cell = await playing().chooseMove(before, { level: state.level, rng });
  } catch (error) {
    broken(error);
    return null;
  } finally {
    busy(-1);
  }
  if (game() !== before) return null;
  place(cell);
  return `The computer (${other(state.human)}) plays ${cell + 1}.`;
}

// Reads of a book by parts under way: while there are some the board says it is busy.
let waiting = 0;
function busy(change) {
  waiting += change;
  if (waiting) $('board').setAttribute('aria-busy', 'true');
  else $('board').removeAttribute('aria-busy');
  document.body.dataset.busy = String(waiting > 0);
  if (byParts && !waiting) showParts();
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

// Feedback for a key that cannot be played: the status says why (even over a step of the
// analysis, which the status says otherwise), the cell (if any) shakes.
let refusing = false;
function refuse(text, cell = -1) {
  announce(text);
  refusing = true;
  render();
  refusing = false;
  const button = $('board').children[cell];
  if (button) {
    button.classList.remove('refused');
    void button.offsetWidth; // restart the animation on a second refusal
    button.classList.add('refused');
    setTimeout(() => button.classList.remove('refused'), 400);
  }
}

// The hint for the position on the board (web/hints.js, the terminal's): worked out once per
// position of a game, its play-outs kept for the game's later hints as ttt-play keeps them.
function hintFor(board) {
  if (!state.hintCache.has(board)) {
    // A book by parts asks again once an answer is read (render): the walks keep their first limits.
    if (!state.hintLimits.has(board)) state.hintLimits.set(board, {});
    const limits = state.hintLimits.get(board);
    state.hintCache.set(board, moveHints(playing(), board, { first: game().first, walks: state.walks, limits }));
    state.hintLimits.delete(board);
  }
  return state.hintCache.get(board);
}

// The words under the board when hints are on (the terminal's legend, in the page's words).
const HINT_LEGEND =
  "Each free cell shows where moving there leads with best play from both sides: a draw, or a win or loss in so many moves (both players' moves counted, this one included). The book's move is the one the computer would play in your place.";

// Draw the page as the state stands. A book by parts may lack an answer the board shows (a hint,
// the analysis): then nothing is drawn until it is read, and the page is drawn again after, as
// the state stands then, until nothing is missing.
let reading = false;
function render() {
  try {
    draw();
  } catch (error) {
    if (!(error instanceof Unread)) throw error;
    if (reading) return; // the reads under way end with a drawing of the state as it stands then
    reading = true;
    readAndDraw(error);
  }
}

async function readAndDraw(unread) {
  busy(1);
  try {
    for (;;) {
      await state.book.read(unread);
      try {
        draw();
        reading = false; // at once: a render() from here on draws, or reads, for itself
        return;
      } catch (error) {
        if (!(error instanceof Unread)) throw error;
        unread = error;
      }
    }
  } catch (failure) {
    reading = false;
    broken(failure);
  } finally {
    busy(-1);
  }
}

function draw() {
  const live = standingOf(game());
  const n = state.moves.length;
  // What the board shows: the game as it stands or, in the analysis, the position after `step` moves.
  const positions = state.analysing ? analyse(state.book, state.moves, { first: game().first, human: state.human }) : null;
  if (positions) state.step = Math.min(state.step, n);
  const step = positions ? state.step : n;
  const reviewing = step < n;
  const shown = positions ? positions[step] : { board: game().board, ...live };
  const { board, line } = shown;
  const playable = !live.over && !reviewing && turn() === state.human;
  // Free cells: the hint (your move, hints on) or the analysis's outcome for the side to move.
  const hints = playable && state.hints ? hintFor(board) : [];
  const byCell = new Map(hints.map((h) => [h.cell, h]));
  const last = step > 0 ? state.moves[step - 1] : -1;
  const next = reviewing ? state.moves[step] : -1;
  // A completed line, coloured by what it means for you: won or lost (under misère the line
  // of the one who completed it, and lost).
  const lineClass = shown.winner === state.human ? 'you-won' : 'you-lost';
  const lineWords = state.book.rules.misere ? 'in the completed line, which loses' : 'in the winning line';
  const cells = $('board').children;
  for (let c = 0; c < state.book.cells; c++) {
    const button = cells[c];
    const mark = board[c];
    const classes = ['cell', mark === '.' ? 'free' : mark];
    // The name holds the visible words in order, then what they mean (WCAG 2.5.3, axe's
    // label-content-name-mismatch): "Cell 3: win in 3, book's move, if you play here",
    // "Cell 5: O, last move, by the computer".
    const shownWords = [];
    const meaning = [];
    const parts = [];
    const span = (className, text) => {
      const element = document.createElement('span');
      element.className = className;
      element.textContent = text;
      parts.push(' ', element); // the space keeps "2 draw" two words (a flex box does not show it)
      shownWords.push(text);
    };
    const hint = byCell.get(c);
    if (mark !== '.') {
      parts.push(' ', mark);
      shownWords.push(mark);
    } else if (hint) {
      span(`hint ${hint.kind}`, hint.words);
      meaning.push('if you play here');
      if (hint.book) {
        classes.push('book');
        span('tag', "book's move");
      }
    } else if (positions && shown.outcomes) {
      // What it means for you, in words and colour, as the chart beside them: where the
      // computer would win in 1, "you lose in 1", red; where it would lose in 2, "you win in 2".
      const { text, kind } = forYou(shown.outcomes[c], shown.mover === state.human);
      span(`hint ${kind}`, text);
      meaning.push(`if ${shown.mover} (${who(shown.mover)}) plays here`);
    } else {
      shownWords.push('empty');
    }
    if (c === last) {
      classes.push('last');
      span('tag', 'last move');
      meaning.push(`by ${who(moverOf(step - 1))}`);
    }
    if (c === next) {
      classes.push('next');
      span('tag', 'played next');
      meaning.push(`which ${moverOf(step)} did`);
    }
    if (line.includes(c)) {
      classes.push(lineClass);
      meaning.push(lineWords);
    }
    const num = document.createElement('span');
    num.className = 'num';
    num.textContent = String(c + 1);
    button.replaceChildren(num, ...parts);
    button.className = classes.join(' ');
    button.setAttribute('aria-label', `Cell ${c + 1}: ${[...shownWords, ...meaning].join(', ')}`);
    // aria-disabled, not disabled: a taken cell keeps the focus the arrow keys move, and a
    // click or Enter on it says why nothing happened.
    button.setAttribute('aria-disabled', String(!playable || mark !== '.'));
    button.tabIndex = c === state.cursor ? 0 : -1;
  }
  $('why').textContent = why(hints, playing().against);
  $('why').hidden = !hints.length;
  $('legend').textContent = HINT_LEGEND;
  $('legend').hidden = !hints.length;
  $('hint').setAttribute('aria-pressed', String(state.hints));
  // Once a game is over Play again takes the hint switch's place (no hint to show then).
  $('again').hidden = !live.over;
  $('hint').hidden = live.over;
  $('undo').disabled = lastHumanMove() < 0;
  let status;
  if (live.over) {
    status = resultWords(state.book, live, state.human);
    if (!state.counted) {
      state.counted = true;
      if (live.winner === null) state.tally.drawn++;
      else if (live.winner === state.human) state.tally.won++;
      else state.tally.lost++;
    }
  } else if (turn() === state.human) {
    status = `Your move (${state.human}).`;
  } else {
    status = `The computer (${turn()}) is choosing its move…`; // seen only while a book by parts is read
  }
  // A step of the analysis before the last: the status says the step, not the game's last news.
  const said = reviewing && !refusing ? stepWords(positions, step) : [lastAnnouncement, status].filter(Boolean).join(' ');
  $('status').textContent = said;
  $('status').dataset.over = String(live.over);
  $('tally').textContent = `You: ${state.tally.won} won, ${state.tally.drawn} drawn, ${state.tally.lost} lost`;
  renderAnalysis(positions);
}

// ---------------------------------------------------------------- the analysis view

/** What the status says of the analysis's step `step` (before the last): "Move 3 of 7: X (the computer) played 5. O (you) to move." */
function stepWords(positions, step) {
  const n = positions.length - 1;
  const at = positions[step];
  const next = at.over ? resultWords(state.book, at, state.human) : `${at.mover} (${who(at.mover)}) to move.`;
  if (step === 0) return `Start, step 0 of ${n}: the empty board. ${next}`;
  const before = positions[step - 1];
  return `Move ${step} of ${n}: ${before.mover} (${who(before.mover)}) played ${before.played + 1}. ${next}`;
}

// The stepper and the words under the board, the chart and the turning points beside it; the
// board itself is drawn by render().
function renderAnalysis(positions) {
  $('analyse').setAttribute('aria-expanded', String(state.analysing));
  for (const id of ['analysis', 'stepper', 'step-detail']) $(id).hidden = !state.analysing;
  if (!positions) return;
  const n = state.moves.length;
  const at = positions[state.step];
  $('step-label').textContent = state.step === 0 ? `Start: 0 of ${n}` : `Move ${state.step} of ${n}`;
  $('step-start').disabled = $('step-back').disabled = state.step === 0;
  $('step-end').disabled = $('step-forward').disabled = state.step === n;

  let detail;
  if (at.over) {
    detail = `The game is over. ${resultWords(state.book, at, state.human)}`;
  } else {
    const yours = at.mover === state.human;
    const outcomeWords = (cell) => forYou(at.outcomes[cell], yours).text;
    const where = yours ? 'by playing there' : `if ${at.mover} plays there`;
    detail = `${at.mover} to move (${who(at.mover)}); each free cell shows what you get ${where}.`;
    if (at.played !== null) {
      const best = at.optimal.includes(at.played);
      detail += ` ${at.mover} played ${at.played + 1}: ${outcomeWords(at.played)}`;
      detail += best ? ', a best move.' : `, where ${cellList(at.optimal)} gave “${outcomeWords(at.optimal[0])}”.`;
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
  // A step button that this step disables loses the keyboard focus: keep it in the stepper. The
  // focus is read before the render, since a browser may drop it as soon as the button is
  // disabled (Chromium 150 does, at once; older ones kept it until the next key).
  const focused = document.activeElement;
  state.step = Math.max(0, Math.min(step, state.moves.length));
  render();
  if (focused instanceof HTMLButtonElement && focused.disabled && $('stepper').contains(focused)) {
    $(['step-start', 'step-back'].includes(focused.id) ? 'step-forward' : 'step-back').focus({ preventScroll: true });
  }
  // The sentence that says what the cells show, right under the stepper: on the screen.
  const detail = $('step-detail').getBoundingClientRect();
  if (detail.top < 0 || detail.bottom > innerHeight) $('step-detail').scrollIntoView({ block: 'nearest', behavior: motion() });
}

// ---------------------------------------------------------------- actions

// Reduced motion: a jump, not a glide.
const motion = () => (matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/** Scroll the page, if need be, so that the status and the whole board are on the screen. */
function showGame() {
  const top = $('status').getBoundingClientRect().top;
  const bottom = $('board').getBoundingClientRect().bottom;
  if (top < 0 || bottom > innerHeight) $('status').scrollIntoView({ block: 'start', behavior: motion() });
}

/**
 * Once the analysis opens: the board's top and the chart on the screen. On a phone the stepper,
 * the step's sentence and the chart are under the board: the page scrolls to show the chart
 * whole, but never so far that the board's top leaves the screen (on a small phone the chart's
 * foot stays below: the board, the stepper and the sentence matter more).
 */
function showAnalysis() {
  const chart = $('chart').getBoundingClientRect();
  const board = $('board').getBoundingClientRect();
  const margin = parseFloat(getComputedStyle($('chart')).scrollMarginBottom) || 0;
  const above = Math.min(board.top, chart.top);
  const by = above < 0 ? above - margin : Math.max(0, Math.min(chart.bottom + margin - innerHeight, board.top));
  // To a place in the page's coordinates, read at one instant: right even while a scroll glides.
  if (by) scrollTo({ top: scrollY + by, behavior: motion() });
}

async function newGame() {
  state.human = $('mark').value;
  state.level = $('level').value;
  state.positions = [Position.empty(state.book.rules, $('first').value)];
  state.moves = [];
  state.counted = false;
  state.pending = '';
  state.walks = new Map();
  state.hintCache = new Map();
  state.hintLimits = new Map();
  if (byParts) state.book.forget();
  $('new-game').classList.remove('attention');
  note('');
  const news = `New game: you are ${state.human}, ${game().first} moves first, level ${state.level}.`;
  announce(news);
  state.step = 0;
  render();
  const opening = await computerMove();
  if (!opening) return; // you move first, or this game is over already (a newer one, a book unread)
  announce(`${news} ${opening}`);
  state.step = state.moves.length;
  render();
}

async function play(cell) {
  if (isOver() || turn() !== state.human || game().board[cell] !== '.') return;
  const following = state.step === state.moves.length;
  place(cell);
  announce(`You play ${cell + 1}.`);
  if (following) state.step = state.moves.length;
  render();
  const reply = await computerMove();
  if (!reply) return;
  announce(reply);
  if (following) state.step = state.moves.length;
  render();
}

// A key or a click that names a cell: played, or refused with a reason.
function tryCell(cell) {
  if (isOver()) return refuse('The game is over: press Play again for another game.');
  if (state.analysing && state.step < state.moves.length) {
    return refuse(`The board shows move ${state.step} of ${state.moves.length}: step to the last move (») to play on.`);
  }
  const taken = game().board[cell];
  if (taken !== '.') return refuse(`Cell ${cell + 1} is taken (${taken}): choose a free cell.`, cell);
  if (turn() !== state.human) return refuse('The computer is choosing its move: wait for it.');
  return play(cell);
}

function toggleHints() {
  state.hints = !state.hints;
  render();
}

function undo() {
  const last = lastHumanMove();
  if (last < 0) return;
  const at = standingOf(game());
  if (at.over && state.counted) {
    if (at.winner === null) state.tally.drawn--;
    else if (at.winner === state.human) state.tally.won--;
    else state.tally.lost--;
    state.counted = false;
  }
  state.positions = state.positions.slice(0, last + 1);
  state.moves = state.moves.slice(0, last);
  state.step = state.moves.length;
  announce('Undone.');
  render();
}

// A setting changed between games applies at once; during a game the level applies from the
// computer's next move, and the mark or who moves first waits for New game, with a note.
function settingChanged(event) {
  const started = lastHumanMove() >= 0 && !isOver();
  if (event.target.id === 'against') {
    chooseOpponent($('against').value, started).then(render); // the hint follows the book played from
    return;
  }
  if (event.target.id === 'level') {
    state.level = $('level').value;
    note(started ? `Level changed to ${state.level}: the computer plays at that level from its next move.` : `Level: ${state.level}.`);
    return;
  }
  if (lastHumanMove() < 0) {
    newGame(); // nothing of yours to lose: start over with the new sides
    note(`New game with the change: you are ${state.human}, ${game().first} moves first.`);
    return;
  }
  const what = event.target.id === 'mark' ? `You play ${$('mark').value}` : `${$('first').value} moves first`;
  note(`${what} from the next game: press New game. This game goes on (you are ${state.human}, ${game().first} moved first).`);
  $('new-game').classList.add('attention');
}

function buildBoard() {
  const { rows, cols, cells } = state.book.rules;
  const board = $('board');
  board.style.setProperty('--cols', String(cols));
  board.style.setProperty('--rows', String(rows));
  // The keys are named only where a keyboard is likely, as the help under the page is shown.
  const keyboard = matchMedia('(hover: hover) and (pointer: fine)');
  const name = () => {
    const keys = keyboard.matches ? `: type a cell's number (1 to ${cells}) or move with the arrow keys and press Enter` : '';
    board.setAttribute('aria-label', `Board, ${rows} rows by ${cols} columns${keys}`);
  };
  name();
  keyboard.addEventListener('change', name);
  for (let c = 0; c < cells; c++) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.cell = String(c);
    button.addEventListener('click', () => tryCell(c));
    button.addEventListener('focus', () => moveCursor(c, { focus: false }));
    board.append(button);
  }
}

// The board is one stop for Tab; the arrow keys move the focus from cell to cell (roving tabindex).
function moveCursor(cell, { focus = true } = {}) {
  const buttons = $('board').children;
  if (buttons[state.cursor]) buttons[state.cursor].tabIndex = -1;
  state.cursor = cell;
  buttons[cell].tabIndex = 0;
  if (focus) buttons[cell].focus();
}

// The digits typed so far wait for one more, or for Enter (keys.js); the status says so.
function typed(key) {
  const result = typeDigit(state.pending, key, state.book.cells);
  state.pending = result.pending ?? '';
  if (result.refused) return refuse(result.refused);
  if (result.pending) {
    announce(pendingWords(result.pending, state.book.cells));
    return render();
  }
  return playTyped(result.cell);
}

function playTyped(cell) {
  state.pending = '';
  tryCell(cell);
  moveCursor(cell);
}

// The terminal's keys for the page's actions (keys.js, ACTION_KEYS): h the hint, u undo, ? the keys.
function act(action) {
  state.pending = ''; // as on the terminal, any key but a digit ends a number being typed
  if (action === 'help') {
    $('keys-dialog').showModal();
  } else if (action === 'hint') {
    if ($('hint').hidden) return refuse('The game is over, so there is no hint: press Play again for another game.');
    toggleHints();
  } else if (action === 'undo') {
    if (lastHumanMove() < 0) return refuse('Nothing to undo yet.');
    undo();
  }
}

function onKey(event) {
  if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
  if ($('keys-dialog').open) return; // Esc or its button closes it
  const action = actionOf(event.key);
  if (action) {
    event.preventDefault();
    act(action);
    return;
  }
  if (state.analysing && $('stepper').contains(event.target) && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
    stepTo(state.step + (event.key === 'ArrowLeft' ? -1 : 1));
    event.preventDefault();
    return;
  }
  if (/^[0-9]$/.test(event.key)) {
    typed(event.key);
  } else if (state.pending && event.key === 'Enter') {
    event.preventDefault(); // the digits typed, not the focused button
    playTyped(Number(state.pending) - 1);
  } else if (state.pending && (event.key === 'Escape' || event.key === 'Backspace')) {
    state.pending = '';
    announce('Typing cancelled.');
    render();
  } else if (event.key.startsWith('Arrow') && ($('board').contains(event.target) || event.target === document.body)) {
    const { rows, cols } = state.book.rules;
    const onBoard = $('board').contains(event.target);
    moveCursor(onBoard ? arrowTarget(event.key, state.cursor, rows, cols) : state.cursor);
    event.preventDefault(); // no scrolling
  }
}

// ---------------------------------------------------------------- loading the book

const MB = (bytes) => (bytes / 1e6).toFixed(1);

function loading(text) {
  $('loading').textContent = text;
  $('loading').hidden = !text;
}

/** The book's bytes, saying how much has arrived while a big one downloads. */
async function download(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new BookError('unreadable', `${url}: cannot be fetched (${error.message}) [unreadable]`);
  }
  if (!response.ok) {
    const reason = [response.status, response.statusText].filter(Boolean).join(' ');
    throw new BookError('unreadable', `${url}: the server answered HTTP ${reason} [unreadable]`);
  }
  // The bytes, not response.text(): that would drop a byte-order mark and patch invalid UTF-8,
  // which the book format refuses (docs/book-format.md, step 3); and no more of them than a book
  // may have: a longer body is cancelled at 64 MiB, not held whole first (issue 41, item 9).
  return readBookResponse(response, {
    source: url,
    progress: (received, total) => {
      if (total >= 1_000_000) loading(`Downloading the book: ${MB(received)} of ${MB(total)} MB…`);
      else if (received >= 1_000_000) loading(`Downloading the book: ${MB(received)} MB…`);
    },
  });
}

// The browser's storage for the proven-book record, wrapped to see whether these bytes were
// recorded (the page says so); null where the browser refuses storage (then the book is proven).
function provenRecord() {
  let storage;
  try {
    storage = window.localStorage;
  } catch {
    return { storage: null, recorded: () => false };
  }
  let recorded = false;
  return {
    storage: {
      getItem: (key) => {
        const value = storage.getItem(key);
        recorded = value !== null;
        return value;
      },
      setItem: (key, value) => storage.setItem(key, value),
    },
    recorded: () => recorded,
  };
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/**
 * The book ranked against `against` beside the one being played, or null: the packaged books
 * come ranked against each reference opponent (docs/book-format.md, "Trap order"), so a packaged
 * book's twin is the packaged book of the same rules ranked against `against` (PACKAGED_BOOKS).
 */
function twinUrl(against) {
  const name = new URL(bookUrl).pathname.split('/').pop();
  const mine = PACKAGED_BOOKS.find((b) => b.file === name);
  const twin = mine && PACKAGED_BOOKS.find((b) => b.misere === mine.misere && b.against === against);
  return twin ? new URL(twin.file, bookUrl).href : null;
}

/** The opponent the perfect level plays to beat: the twin book loaded when first chosen. */
async function chooseOpponent(against, started) {
  const select = $('against');
  if (!state.rankings.has(against)) {
    select.disabled = true;
    try {
      const bytes = await download(twinUrl(against));
      state.rankings.set(against, await loadBookCached(bytes, { storage: provenRecord().storage, rules: state.book.rules, source: twinUrl(against) }));
    } catch (error) {
      select.value = state.against;
      select.disabled = false;
      note(`The book for playing against ${opponentNamed(against).words} could not be loaded: ${error.message}`);
      return;
    }
    select.disabled = false;
  }
  if (against !== state.against) {
    // The hint follows the book played from; its play-outs walk that book's top tier.
    state.walks = new Map();
    state.hintCache = new Map();
  }
  state.against = against;
  select.value = against;
  const who = opponentNamed(against).words;
  note(started ? `The computer plays to beat ${who} from its next move.` : `The computer plays to beat ${who}.`);
}

/** What the details about the book say of a book by parts: its parts, and how many have been read. */
function showParts() {
  const { parts, reads, bytesRead } = state.book.reader;
  const size = parts.reduce((sum, part) => sum + part.bytes, 0);
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  $('book-info').textContent =
    `Book by parts: ${parts.length} parts, ${kB(size)} in all, read as the game needs them` +
    ` (${reads} read so far, ${kB(bytesRead)}). Each part read is checked against its SHA-256 in the manifest,` +
    ' and each answer against the answers one move on; the whole book is proven by ttt-book verify, not here.';
  document.body.dataset.partsRead = String(reads);
}

/**
 * Parts of a book by parts the page holds at once (the reader's default is 64). The hint at a
 * 4x4 game's second move walks 20,000 positions over 188 of its 288 parts: holding 64 the page
 * read 1,469 parts and took 24 to 31 s, holding 256 it read each of the 188 once and took 6 to
 * 8 s, its heap 75 to 87 MB instead of 54 (docs/benchmarks.md, "A book by parts in the page").
 */
const PARTS_HELD = 256;

/** Read a book by parts' manifest (no part yet); resolves to its answers as the page asks them. */
async function openParts() {
  const started = performance.now();
  loading('Reading the book’s manifest…');
  const reader = await fetchPartsBook(bookUrl, { cacheParts: PARTS_HELD });
  const book = new KnownAnswers(reader);
  document.body.dataset.bookTrust = 'parts';
  document.body.dataset.bookMs = String(Math.round(performance.now() - started));
  return { book, info: '' };
}

/** Download and prove the book (once per browser for a big one); resolves to its reader and what the page says about it. */
async function openBook() {
  if (byParts) return openParts();
  const started = performance.now();
  loading('Loading the book…');
  const bytes = await download(bookUrl);
  const size = bytes.length >= 1_000_000 ? `${MB(bytes.length)} MB` : `${(bytes.length / 1000).toFixed(1)} kB`;
  loading(`Proving the book (${size}): checking every entry against its successors, unless this browser proved these exact bytes before…`);
  await nextFrame(); // the words above are painted before the proof holds the page
  const record = provenRecord();
  const book = await loadBookCached(bytes, { storage: record.storage, rules: null, source: bookParam });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  document.body.dataset.bookTrust = record.recorded() ? 'recorded' : 'proven';
  document.body.dataset.bookMs = String(Math.round(performance.now() - started));
  const how = record.recorded() ? 'already proven in this browser, so not proven again' : 'proven';
  return { book, info: `Book ${size}, ${how}: ready in ${seconds} s.` };
}

function describeRules(rules) {
  const board = rules.rows === rules.cols ? `${rules.rows}x${rules.cols}` : `${rules.rows} rows by ${rules.cols} columns`;
  const line = rules.misere ? `completing ${rules.k} in a row loses (misère)` : `${rules.k} in a row wins`;
  return `${board}, ${line}`;
}

// The rules links: the one for the book being played is marked current.
function markCurrentRules() {
  for (const link of document.querySelectorAll('#rules-nav a')) {
    const target = new URL(new URLSearchParams(new URL(link.href).search).get('book') || DEFAULT_BOOK, link.href).href;
    if (target === bookUrl) link.setAttribute('aria-current', 'page');
  }
}

/** A part of a book by parts that cannot be used, met during a game: the game stops, saying why. */
function broken(error) {
  refused(error, 'The book could not be read, so the game cannot go on');
  $('game').hidden = true;
}

function refused(error, what = 'The book could not be loaded, so the game cannot start') {
  const box = $('error');
  const code = error instanceof BookError ? error.code : 'internal';
  // For the player, what went wrong; the reason code (which ends the reader's messages) once,
  // in the details about the book.
  const suffix = ` [${code}]`;
  const message = error.message.endsWith(suffix) ? error.message.slice(0, -suffix.length) : error.message;
  const head = document.createElement('p');
  head.textContent = `${what}: ${message}${/[.!?]$/.test(message) ? '' : '.'}`;
  const next = document.createElement('p');
  next.textContent = 'Choose other rules above.';
  box.replaceChildren(head, next);
  box.dataset.code = code;
  box.hidden = false;
  $('error-code').textContent = `Reason code: ${code} (docs/book-format.md, “A valid book”).`;
  $('error-code').hidden = false;
  $('keys-help').hidden = true; // no board to play on
  loading('');
  $('new-game').disabled = true;
  document.body.dataset.ready = 'error';
}

async function start() {
  markCurrentRules();
  $('book-name').textContent = bookParam;
  let info;
  try {
    ({ book: state.book, info } = await openBook());
  } catch (error) {
    refused(error);
    return;
  }
  loading('');
  const { rules } = state.book;
  $('rules').textContent = `Rules: ${describeRules(rules)}.`;
  $('book-info').textContent = info;
  document.title = `${rules.misere ? 'Misère tic-tac-toe' : 'Tic-tac-toe'} ${rules.rows}x${rules.cols}, ${rules.k} in a row, against the book`;
  $('keys-help').textContent = keysHelp(rules.cells, rules.cols);
  $('keys-dialog-help').textContent = keysHelp(rules.cells, rules.cols);
  // The posters draw the classic game's book: linked only when that is the game played.
  $('posters').hidden = !(rules.rows === 3 && rules.cols === 3 && rules.k === 3 && !rules.misere);
  let empty;
  try {
    empty = await settled(state.book, () => state.book.evaluate(rules.empty.repeat(rules.cells)));
  } catch (error) {
    refused(error);
    return;
  }
  if (byParts) showParts(); // the parts read for the empty board's answer
  if (empty.value !== 0) {
    // Not a draw (3x4: the first player wins): perfect play as the second player can lose.
    $('level').querySelector('option[value=perfect]').textContent = 'perfect (best play)';
  }
  state.against = state.book.against;
  state.rankings = new Map([[state.book.against, state.book]]);
  const others = OPPONENTS.map((o) => o.name).filter((name) => name !== state.book.against && twinUrl(name));
  // The choice is offered where the book has a twin ranked against the other opponent (the
  // packaged books); another book plays as it is ranked.
  $('against-choice').hidden = others.length === 0;
  // Who the default opponent, a novice, is under these rules (the reader's OPPONENTS, in ttt-book levels' words).
  const [novice] = OPPONENTS;
  $('against-help').textContent = `${novice.words[0].toUpperCase()}${novice.words.slice(1)} ${opponentPlays(novice, rules)}.`;
  $('against').value = state.book.against;
  if (params.get('against') && params.get('against') !== state.book.against && others.includes(params.get('against'))) {
    await chooseOpponent(params.get('against'), false);
  }
  buildBoard();
  $('game').hidden = false;
  $('settings').addEventListener('submit', (event) => {
    event.preventDefault();
    newGame();
    showGame(); // on a phone the settings are under the board: the next game is above them
  });
  $('again').addEventListener('click', () => {
    newGame();
    showGame();
    // The button is gone: the keyboard's focus goes to the board (not scrolled to: showGame is).
    moveCursor(state.cursor, { focus: false });
    $('board').children[state.cursor].focus({ preventScroll: true });
  });
  $('new-game').disabled = false; // disabled while the book loads: a submit then would reload the page
  for (const id of ['mark', 'first', 'level', 'against']) $(id).addEventListener('change', settingChanged);
  $('hint').addEventListener('click', toggleHints);
  $('undo').addEventListener('click', undo);
  $('analyse').addEventListener('click', () => {
    state.analysing = !state.analysing;
    state.step = state.moves.length;
    render();
    if (state.analysing) showAnalysis();
  });
  $('step-start').addEventListener('click', () => stepTo(0));
  $('step-back').addEventListener('click', () => stepTo(state.step - 1));
  $('step-forward').addEventListener('click', () => stepTo(state.step + 1));
  $('step-end').addEventListener('click', () => stepTo(state.moves.length));
  document.addEventListener('keydown', onKey);
  await newGame();
  if (document.body.dataset.ready !== 'error') document.body.dataset.ready = 'yes';
}

start();
