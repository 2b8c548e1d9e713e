// The books the npm package ships (books/, staged from the repository's book/ at pack time by
// stage-books.mjs), and loading one by what it is: shared by the package's two entries, which
// differ only in how they read a book's bytes: index.js fetches them (browsers, bundlers),
// node.js reads the file (Node).
//
// loadPackagedBook proves a book as it loads it, exactly as loadBook proves any book: the
// package keeps no record that would let a proof be skipped, and the 3x3 books take a few
// milliseconds.

import { BookError, OPPONENTS, loadBook, opponentNamed } from './tictactoe-book.js';

/**
 * The books in the package (as tictactoe_book.reader.PACKAGED in Python): 3x3, normal and misère, each
 * with its optimal moves ranked to beat a novice first, or a random player.
 */
export const PACKAGED_BOOKS = Object.freeze([
  Object.freeze({ file: 'tictactoe.json', misere: false, against: 'novice' }),
  Object.freeze({ file: 'tictactoe-misere.json', misere: true, against: 'novice' }),
  Object.freeze({ file: 'tictactoe-vs-random.json', misere: false, against: 'random' }),
  Object.freeze({ file: 'tictactoe-misere-vs-random.json', misere: true, against: 'random' }),
]);

/**
 * loadPackagedBook's options checked, the book they name read by `read(file)` (a Promise of its
 * bytes) and proven. Rejects with BookError 'unreadable' when the bytes cannot be read.
 */
export async function loadPackaged(options, read) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new TypeError(`options must be {misere, against} or null, got ${String(JSON.stringify(options)).slice(0, 100)}`);
  }
  const { misere = false, against = OPPONENTS[0].name } = options ?? {};
  if (misere !== true && misere !== false) throw new TypeError(`misere must be true or false, got ${String(JSON.stringify(misere)).slice(0, 100)}`);
  // The registry names the opponents (a RangeError, the name cut as every message cuts one);
  // the package ships a book for each (a test checks).
  const { name } = opponentNamed(against);
  const book = PACKAGED_BOOKS.find((b) => b.misere === misere && b.against === name);
  const source = `tictactoe-book/books/${book.file}`;
  let bytes;
  try {
    bytes = await read(book.file);
  } catch (error) {
    if (error instanceof BookError) throw error; // read, and refused as it was read (too long)
    throw new BookError('unreadable', `${source}: cannot be read (${error.message}) [unreadable]`);
  }
  return loadBook(bytes, { rules: { rows: 3, cols: 3, k: 3, misere }, source });
}
