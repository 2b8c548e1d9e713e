// The hint as ttt-play gives it, mirrored from player/tictactoe_book/hints.py (and the play-outs of
// player/tictactoe_book/rates.py, against the reader's OPPONENTS): every free cell's outcome, the book's move (the top
// tier of the trap order, what the perfect level plays) and one sentence of why, word for word
// the terminal's. tests/test_web_hints.py compares this sentence with tictactoe_book.hints.why on every
// position of the 3x3 books and of 3x4; change the two together.
//
// Built on the reader's public API only (evaluate, rules, and Position for who won, the legal moves
// and a move played). The chances are exact, as in Python: integers (BigInt) over a common
// scale, one division at the end.
//
// Cells are the reader's: 0 to cells - 1. The sentence shows them as people do, c + 1.
import { OPPONENTS, Position, opponentMoves, opponentNamed, ranking as rankingOf } from '../clients/js/tictactoe-book.js';
import { cellsAnd, other, words } from './analysis.js';

/** New positions each opponent's walk may visit for one hint (player/tictactoe_book/hints.py HINT_BUDGET). */
export const HINT_BUDGET = 10_000;
/** Why a hint gives no chances against `opponent` (early on a big board). */
export const uncounted = (opponent) =>
  `how often each move wins against ${opponentNamed(opponent).words} is not counted: too many lines of ` +
  'play this early on this board (ask again later in the game)';

/** A walk would visit more positions than its budget allows (tictactoe_book.errors.TooManyLines). */
export class TooManyLines extends Error {}

// ---------------------------------------------------------------- exact chances

const gcd = (a, b) => {
  while (b) [a, b] = [b, a % b];
  return a;
};
const bitLength = (n) => n.toString(2).length;

/** An exact fraction of BigInts, 0 <= n, 0 < d (the chances; Python's Fraction). */
export class Ratio {
  constructor(n, d) {
    this.n = n;
    this.d = d;
  }
  compare(other) {
    const a = this.n * other.d;
    const b = other.n * this.d;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  equals(other) {
    return this.compare(other) === 0;
  }
  /** The nearest double, as Python's float(Fraction) (correctly rounded, ties to even). */
  toNumber() {
    const { n, d } = this;
    if (n === 0n) return 0;
    // q = floor(n * 2^s / d) with 55 or 56 bits; rounded to 53 with the remainder as sticky bit.
    const s = 55 - (bitLength(n) - bitLength(d));
    const [num, den] = s >= 0 ? [n << BigInt(s), d] : [n, d << BigInt(-s)];
    const q = num / den;
    const rest = num % den;
    const extra = BigInt(bitLength(q) - 53);
    let keep = q >> extra;
    const tail = q & ((1n << extra) - 1n);
    const half = 1n << (extra - 1n);
    if (tail > half || (tail === half && (rest !== 0n || keep % 2n === 1n))) keep += 1n;
    return Number(keep) * 2 ** (Number(extra) - s);
  }
}

/**
 * `x` with `places` decimals as Python's format(x, '.Nf') writes it: the exact binary value
 * rounded, a tie to the even digit (toFixed takes the larger one on a tie).
 */
export function fixed(x, places) {
  const scaled = x * 2 ** (places + 1); // exact: a power of two
  if (!Number.isInteger(scaled) || scaled % 2 === 0) return x.toFixed(places); // not a tie
  // x * 10^places is (scaled * 5^places) / 2, a half: take the even neighbour.
  const twice = BigInt(scaled) * 5n ** BigInt(places);
  let whole = (twice - 1n) / 2n;
  if (whole % 2n === 1n) whole += 1n;
  const digits = whole.toString().padStart(places + 1, '0');
  return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
}

const lcm = (a, b) => (a / gcd(a, b)) * b;

/**
 * Every game from a position between two policies (a function per mark: board -> the cells it
 * picks among, uniformly), in a game `first` began: the exact chance of each result
 * (tictactoe_book.rates.PlayOut, walked in the same order, remembering the same positions).
 */
export class PlayOut {
  constructor(book, players, { first = 'X' } = {}) {
    this.book = book;
    this.players = players;
    this.first = first;
    let scale = 1n;
    for (let i = 1n; i <= BigInt(book.cells); i++) scale = lcm(scale, i);
    this.scale = scale;
    this.memo = new Map(); // board -> [X wins, draw, O wins], times scale ** empties
    this.limit = null;
  }

  /** `mark`'s chances from `board`: {win, draw, loss} as Ratios. TooManyLines past `limit`. */
  outcome(board, mark, { limit = null } = {}) {
    this.limit = limit;
    const [x, draw, o] = this.walk(board);
    const whole = this.scale ** BigInt(empties(board));
    const [win, loss] = mark === 'X' ? [x, o] : [o, x];
    return { win: new Ratio(win, whole), draw: new Ratio(draw, whole), loss: new Ratio(loss, whole) };
  }

  walk(board) {
    let known = this.memo.get(board);
    if (known) return known;
    const whole = this.scale ** BigInt(empties(board));
    const position = new Position(board, this.book.rules, this.first);
    const ended = position.outcome(); // who won by the rules: under misère, not who made the line
    if (ended !== null) {
      known = ended.winner === 'X' ? [whole, 0n, 0n] : ended.winner === 'O' ? [0n, 0n, whole] : [0n, whole, 0n];
    } else {
      const options = this.players[position.turn](board);
      const share = this.scale / BigInt(options.length);
      let [x, draw, o] = [0n, 0n, 0n];
      for (const cell of options) {
        const child = this.walk(position.play(cell).board);
        [x, draw, o] = [x + child[0], draw + child[1], o + child[2]];
      }
      known = [x * share, draw * share, o * share];
    }
    this.memo.set(board, known);
    if (this.limit !== null && this.memo.size > this.limit) throw new TooManyLines(`more than ${this.limit} positions to walk`);
    return known;
  }
}

const empties = (board) => board.split('.').length - 1;

/** The reference opponent `opponent` as a player of a game `first` began: board -> its cells. */
const opponentPolicy = (book, opponent, first) => (board) => opponentMoves(opponent, new Position(board, book.rules, first));

/**
 * For each legal move of the side to move on `board`: its chance of winning if it plays that
 * move and the book's top tier after it, against each opponent (tictactoe_book.hints.win_chances): a
 * Map cell -> {name: chance} for each opponent of OPPONENTS. `walks` (a Map kept for a game) holds the play-outs between
 * calls; TooManyLines when a walk would visit more than `budget` positions not walked before.
 * `limits` (an object, filled on the first call) holds each walk's limit: a call made again with
 * the same object walks to the limits of the first, however far that one got. The page asks a
 * book by parts so (web/byparts.js): a question stops where an answer is not read yet and is
 * asked again once it is, and its walks must stop where one uninterrupted call would.
 */
export function winChances(book, board, { first = 'X', budget = null, walks = new Map(), limits = {} } = {}) {
  const me = book.evaluate(board, { first }).turn;
  for (const opponent of OPPONENTS) {
    const key = `${opponent.name} ${me}`;
    if (!walks.has(key)) {
      const top = (b) => book.evaluate(b, { first }).tiers[0];
      walks.set(key, new PlayOut(book, { [me]: top, [other(me)]: opponentPolicy(book, opponent, first) }, { first }));
    }
    if (!(opponent.name in limits)) limits[opponent.name] = budget === null ? null : walks.get(key).memo.size + budget;
  }
  const position = new Position(board, book.rules, first);
  const chance = (name, cell) => {
    const after = position.play(cell).board;
    return walks.get(`${name} ${me}`).outcome(after, me, { limit: limits[name] }).win;
  };
  const chances = new Map();
  for (const cell of position.legalMoves()) {
    chances.set(cell, Object.fromEntries(OPPONENTS.map((o) => [o.name, chance(o.name, cell)])));
  }
  return chances;
}

// ---------------------------------------------------------------- the hint

/**
 * Every free cell's hint for the side to move (tictactoe_book.hints.move_hints), in cell order: {cell,
 * value, plies, words, kind, chances ({name: chance} of each opponent, or null when too costly to count), book
 * (a move of the top tier)}. Empty when the game is over. `limits`: winChances'.
 */
export function moveHints(book, board, { first = 'X', walks = new Map(), limits = {} } = {}) {
  const position = new Position(board, book.rules, first);
  if (position.isOver) return [];
  const evaluation = book.evaluate(board, { first });
  let chances = null;
  try {
    chances = winChances(book, board, { first, budget: HINT_BUDGET, walks, limits });
  } catch (error) {
    if (!(error instanceof TooManyLines)) throw error; // early on a big board: no chances
  }
  const top = new Set(evaluation.tiers[0]);
  return position.legalMoves().map((cell) => {
    const outcome = evaluation.outcome(cell);
    const { text, kind } = words(outcome);
    return { cell, ...outcome, words: text, kind, chances: chances ? chances.get(cell) : null, book: top.has(cell) };
  });
}

const cells = (list) => cellsAnd([...list].sort((a, b) => a - b));

/** `61%`, with as many decimals (up to two) as it takes to differ from `others` (tictactoe_book.hints.percent). */
export function percent(chance, ...others) {
  const value = (ratio) => ratio.toNumber() * 100;
  for (const places of [0, 1, 2]) {
    const text = fixed(value(chance), places);
    if (others.every((o) => o.equals(chance) || fixed(value(o), places) !== text)) return `${text}%`;
  }
  return `${fixed(value(chance), 2)}%`;
}

const wordsOf = (name) => opponentNamed(name).words;
const against = (opponent, chance, ...others) => `${percent(chance, ...others)} of games against ${wordsOf(opponent)}`;
const distinct = (ratios) => ratios.filter((r, i) => ratios.findIndex((s) => s.equals(r)) === i).length;
const atMost = (rivals, opponent) => (distinct(rivals.map((h) => h.chances[opponent])) > 1 ? 'at most ' : '');
const count = (items, noun) => `${items.length} ${noun}${items.length === 1 ? '' : 's'}`;
const doVerb = (items) => (items.length === 1 ? 'does' : 'do');
const winVerb = (items) => (items.length === 1 ? 'wins' : 'win');

/**
 * One sentence for the player: what the book's move does, and what it does better than the
 * other moves that reach the same outcome (tictactoe_book.hints.why, word for word), by the two chances
 * its book ranks optimal moves by: first against `ranking` (the book's `against`), then against
 * the other reference opponent. A book ranked against a program is ranked by neither: its
 * sentence says so instead of comparing chances.
 */
export function why(hints, ranking = OPPONENTS[0].name) {
  if (!hints.length) return '';
  const book = hints.filter((h) => h.book);
  const best = book[0];
  const named = cells(book.map((h) => h.cell));
  const verb = book.length > 1 ? '' : 's';
  let same = hints.filter((h) => h.value === best.value && !h.book);
  if (best.value > 0) {
    if (best.plies === 1) return `${named} win${verb} at once.`;
    const slower = same.filter((h) => h.plies > best.plies);
    const tail = slower.length ? '; the other wins take longer' : '';
    return `${named} win${verb} against any defence in ${best.plies} moves, both sides' counted${tail}.`;
  }
  if (!OPPONENTS.some((o) => o.name === ranking)) {
    const ranked = `this book ranks its moves against ${ranking}`;
    if (best.value === 0) return `${named} keep${verb} the draw; ${ranked}.`;
    return `Every move loses against best play; ${named} hold${verb} out longest (${best.words}); ${ranked}.`;
  }
  // the chance the book ranks by first, and the one that breaks its ties
  const [first, second] = rankingOf(ranking).map((o) => o.name);
  const lead = best.chances === null ? null : best.chances[first];
  const leads = lead !== null && lead.n;
  let start;
  let link;
  let draws;
  let noun;
  let theyWin = book.length > 1 ? 'they win' : 'it wins';
  if (best.value < 0) {
    same = same.filter((h) => h.plies === best.plies); // the other moves that hold out as long
    const every = same.length + book.length === hints.length; // no move loses sooner
    const longest = `Every move loses against best play; ${named} hold${verb} out longest (${best.words})`;
    if (every && !same.length) {
      // the book's moves are all the moves, exact ties
      const each = `Every move loses against best play (${best.words} each)`;
      return leads ? `${each}; each wins ${against(first, lead)}.` : `${each}.`;
    }
    if (!same.length) return leads ? `${longest}, and win${verb} ${against(first, lead)}.` : `${longest}.`;
    if (best.chances === null) {
      // early on a big board: the moves are not told apart
      const told = every
        ? `Every move loses against best play (${best.words} each), and the book's move${book.length === 1 ? ' is' : 's are'} ${named}`
        : `${longest}, as ${cells(same.map((h) => h.cell))} ${doVerb(same)}`;
      return `${told}; ${uncounted(first)}.`;
    }
    if (every) {
      // no move holds out longer: the chances tell them apart
      [start, link] = [`Every move loses against best play (${best.words} each)`, `; ${named} `];
      [draws, theyWin] = [`the other move${same.length > 1 ? 's' : ''}`, `${named} win${verb}`];
    } else {
      start = `${longest}, as ${cells(same.map((h) => h.cell))} ${doVerb(same)}`;
      [link, draws] = [', and ', cells(same.map((h) => h.cell))];
    }
    noun = 'move';
  } else {
    if (!same.length) {
      const only = book.length === 1 ? 'is the only move that keeps' : 'are the only moves that keep';
      return `${named} ${only} the draw${leads ? `; ${theyWin} ${against(first, lead)}` : ''}.`;
    }
    if (best.chances === null) {
      // early on a big board: the draws are not told apart
      const keeps =
        same.length + book.length === hints.length
          ? `Every move keeps the draw, and the book's move${book.length === 1 ? ' is' : 's are'} ${named}`
          : `${named} keep${verb} the draw, as ${count(same, 'other move')} ${doVerb(same)}`;
      return `${keeps}; ${uncounted(first)}.`;
    }
    [start, link] = [`${named} keep${verb} the draw`, ' and '];
    [draws, noun] = [`the other draw${same.length > 1 ? 's' : ''}`, 'draw'];
  }
  const order = (a, b) => a[first].compare(b[first]) || a[second].compare(b[second]);
  const rival = same.map((h) => h.chances).reduce((a, b) => (order(b, a) > 0 ? b : a));
  if (rival[first].compare(lead) < 0) {
    if (!rival[first].n) return `${start}${link}win${verb} ${against(first, lead)}; ${draws} never ${doVerb(same)}.`;
    const versus = `${winVerb(same)} ${atMost(same, first)}${percent(rival[first], lead)}`;
    return `${start}${link}win${verb} ${against(first, lead, rival[first])}; ${draws} ${versus}.`;
  }
  // As good against the first opponent as the best of the others: better against the second.
  let beaten;
  if (!lead.n) {
    // then no other move of the same outcome beats the first opponent either
    beaten = same;
    start += `; no ${noun} here beats ${wordsOf(first)}, but against ${wordsOf(second)} ${theyWin}`;
  } else {
    beaten = same.filter((h) => h.chances[first].equals(lead));
    start +=
      `${link}win${verb} ${against(first, lead)}, as ${cells(beaten.map((h) => h.cell))} ` +
      `${doVerb(beaten)}; against ${wordsOf(second)} ${theyWin}`;
  }
  const others = beaten.length === same.length ? draws : cells(beaten.map((h) => h.cell));
  const [mine, theirs] = [best.chances[second], rival[second]];
  if (!theirs.n) return `${start} ${percent(mine)}; ${others} never ${doVerb(beaten)}.`;
  return `${start} ${percent(mine, theirs)}, ${others} ${winVerb(beaten)} ${atMost(beaten, second)}${percent(theirs, mine)}.`;
}
