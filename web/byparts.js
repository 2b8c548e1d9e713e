// A book by parts in the page (docs/book-parts.md): the reader (fetchPartsBook) answers with
// Promises, since an answer may need a part fetched first; the page asks its questions as it asks
// a whole book, at once, in code shared by both (the hints' play-outs ask thousands of them).
// KnownAnswers keeps the answers read so far and answers from them; a question whose answer is
// not read yet throws Unread. The page then reads that answer (KnownAnswers.read) and asks the
// whole question again: a question asks the book before it changes anything (the hints'
// play-outs keep each position they finish, and their limits are the first run's: hints.js), so
// asked again it goes on where it stopped and ends where one run would have.

import { Position } from '../clients/js/tictactoe-book.js';

/** The manifest's name; a URL whose path ends in `/` or in `/manifest.json` names a book by parts. */
const MANIFEST = 'manifest.json';

/** Does `url` (absolute) name a book by parts: its folder (a path ending in `/`) or its manifest? */
export function isPartsBook(url) {
  const { pathname } = new URL(url);
  return pathname.endsWith('/') || pathname.endsWith(`/${MANIFEST}`);
}

/**
 * A question of the book whose answer is not read yet: read it (KnownAnswers.read), then ask
 * again. Thrown, and caught by whoever reads; not an Error, whose stack each of a hint's
 * thousands of reads would capture (a twentieth of its time on 4x4).
 */
export class Unread {
  constructor(board, first) {
    this.board = board;
    this.first = first;
  }

  toString() {
    return `the book's answer for ${this.board} (${this.first} moved first) is not read yet`;
  }
}

/**
 * The answers of a book by parts that have been read, asked as a whole book's reader is asked:
 * `evaluate(board, {first})` (or a Position) returns the reader's answer once read, else throws
 * Unread; `rules`, `cells` and `against` are the reader's. `chooseMove` is the reader's own (a
 * Promise), and `reader` the reader (its `parts`, `reads`, `bytesRead`).
 */
export class KnownAnswers {
  #answers = new Map(); // `${first}${board}` -> the reader's answer

  constructor(reader) {
    this.reader = reader;
    this.rules = reader.rules;
    this.cells = reader.cells;
    this.against = reader.against;
  }

  evaluate(board, { first = 'X' } = {}) {
    if (board instanceof Position) ({ board, first } = board);
    const known = this.#answers.get(`${first}${board}`);
    if (known === undefined) throw new Unread(board, first);
    return known;
  }

  /** Read the answer an Unread asked for (a Promise): the parts it needs are fetched and checked first. */
  async read({ board, first }) {
    this.#answers.set(`${first}${board}`, await this.reader.evaluate(board, { first }));
  }

  /** The reader's chooseMove: a Promise of the computer's move. */
  chooseMove(board, options) {
    return this.reader.chooseMove(board, options);
  }

  /** Let go of the answers read (a new game asks again; the reader keeps its recent parts). */
  forget() {
    this.#answers.clear();
  }
}

/**
 * `ask()`'s value, a question of `book` (a whole book's reader, or KnownAnswers) asked until it
 * is answered: each answer it lacks is read, and it is asked again (a Promise).
 */
export async function settled(book, ask) {
  for (;;) {
    try {
      return ask();
    } catch (error) {
      if (!(error instanceof Unread)) throw error;
      await book.read(error);
    }
  }
}
