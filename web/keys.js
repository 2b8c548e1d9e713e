// Typing a cell's number on any board: cells are shown 1 to `cells` (cell c is c + 1). On a
// board of 9 cells or fewer one digit is a cell. On a bigger one a digit that could start a
// two-digit cell waits for the second digit, or for Enter to take it alone: on 4x4, "7" plays
// 7 at once, "1" waits ("1 2" plays 12, "1 Enter" plays 1); on 3x4, "1 0" plays 10.
// Pure functions; the page keeps the digits typed so far (`pending`, '' for none).

/** What one typed digit does: {cell} to play (0-based), {pending} to wait for more, or {refused: words}. */
export function typeDigit(pending, digit, cells) {
  const typed = pending + digit;
  const number = Number(typed);
  if (number < 1 || number > cells) return { refused: `There is no cell ${typed}: the cells are 1 to ${cells}.` };
  if (number * 10 <= cells) return { pending: typed }; // a second digit could still name a cell
  return { cell: number - 1 };
}

/** The words saying what `pending` waits for, e.g. "Typed 1: type a second digit for 10 to 16, or Enter for 1." */
export function pendingWords(pending, cells) {
  const low = Number(pending) * 10;
  const high = Math.min(cells, low + 9);
  const second = low === high ? `${low % 10} for ${low}` : `a second digit for ${low} to ${high}`;
  return `Typed ${pending}: type ${second}, or Enter for ${pending}.`;
}

/**
 * The keys of the page's actions: the terminal's keys for the same actions (ttt-play's game
 * screen, player/tictactoe_book/apps/screen.py's ACTIONS), for every action the page has: all
 * but quit. tests/test_screen_session.py ties the two tables.
 */
export const ACTION_KEYS = new Map([['h', 'hint'], ['u', 'undo'], ['?', 'help']]);

/** What each action does, in the help's words. */
const ACTION_WORDS = new Map([['hint', 'hints on or off'], ['undo', 'undo your last move and the reply'], ['help', 'these keys']]);

/** The action a key stands for ('hint', 'undo', 'help'), or null; a letter in either case, as the terminal takes it. */
export function actionOf(key) {
  return (key.length === 1 && ACTION_KEYS.get(key.toLowerCase())) || null;
}

/** The action keys in words: "h hints on or off, u undo your last move and the reply, ? these keys". */
export function actionsHelp() {
  return [...ACTION_KEYS].map(([key, action]) => `${key} ${ACTION_WORDS.get(action)}`).join(', ');
}

/** The keyboard help for a board of `cells` cells in `cols` columns. */
export function keysHelp(cells, cols) {
  const keys = ` Keys: ${actionsHelp()}.`;
  if (cells === 9 && cols === 3) {
    return `Click a cell, type its number (1 2 3 / 4 5 6 / 7 8 9), or move with the arrow keys and press Enter.${keys}`;
  }
  // The digits that can start a two-digit cell: 1 up to 16 cells, 1 and 2 at 20 (a book by parts).
  const starters = Array.from({ length: Math.floor(cells / 10) }, (_, i) => i + 1);
  const one =
    starters.length === 1
      ? `; for cell 1 type 1 then Enter, since 1 could start 10 to ${Math.min(cells, 19)}`
      : starters.length > 1
        ? `; for cells ${starters.join(' and ')} type the digit then Enter, since each could start a cell from 10 to ${cells}`
        : '';
  return `Click a cell, move with the arrow keys and press Enter, or type its number (1 to ${cells}, as each cell shows${one}).${keys}`;
}

// A Map, not an object: an object would also answer for the names it inherits ('toString').
const ARROWS = new Map([['ArrowUp', [-1, 0]], ['ArrowDown', [1, 0]], ['ArrowLeft', [0, -1]], ['ArrowRight', [0, 1]]]);

/** The cell an arrow key moves to from `cell` on a rows × cols board (it stops at the edges), or null for another key. */
export function arrowTarget(key, cell, rows, cols) {
  const step = ARROWS.get(key);
  if (!step) return null;
  const [dr, dc] = step;
  const r = Math.min(rows - 1, Math.max(0, Math.floor(cell / cols) + dr));
  const c = Math.min(cols - 1, Math.max(0, (cell % cols) + dc));
  return r * cols + c;
}
