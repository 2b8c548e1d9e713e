// The npm package tictactoe-book: the reader (tictactoe-book.js, exported whole) and the books
// the package ships, loaded by what they are rather than where they lie.
//
// The books are the repository's book/ files, copied into books/ when the package is packed
// (stage-books.mjs, npm's prepack, after this reader has proven each for its rules: a book
// that does not prove fails the pack). loadPackagedBook proves a book again as it loads it,
// exactly as loadBook proves any book: the package keeps no record that would let a proof be
// skipped, and the 3x3 books take a few milliseconds.

import { BookError, loadBook } from './tictactoe-book.js';

export * from './tictactoe-book.js';

/**
 * The books in the package (as player.reader.PACKAGED in Python): 3x3, normal and misère, each
 * with its optimal moves ranked to beat a novice first, or a random player.
 */
export const PACKAGED_BOOKS = Object.freeze([
  Object.freeze({ file: 'tictactoe.json', misere: false, against: 'novice' }),
  Object.freeze({ file: 'tictactoe-misere.json', misere: true, against: 'novice' }),
  Object.freeze({ file: 'tictactoe-vs-random.json', misere: false, against: 'random' }),
  Object.freeze({ file: 'tictactoe-misere-vs-random.json', misere: true, against: 'random' }),
]);

/** The bytes at `url`: from the file system in Node (a file: URL), else fetched (a browser). */
async function readBytes(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP status ${response.status}`);
  // arrayBuffer(), not text(): the reader checks the bytes as the format says (UTF-8, no BOM).
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Load and prove a book the package ships: the 3x3 book, or with `misere` the 3x3 misère book
 * (completing a line loses), its moves ranked to beat `against` first ('novice' or 'random').
 * Resolves to the reader loadBook returns; rejects with BookError (code 'unreadable' when the
 * file cannot be read: in a browser, the package's folder must be served beside the module).
 */
export async function loadPackagedBook(options) {
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    throw new TypeError(`options must be {misere, against} or null, got ${String(JSON.stringify(options)).slice(0, 100)}`);
  }
  const { misere = false, against = 'novice' } = options ?? {};
  if (misere !== true && misere !== false) throw new TypeError(`misere must be true or false, got ${JSON.stringify(misere)}`);
  const book = PACKAGED_BOOKS.find((b) => b.misere === misere && b.against === against);
  if (!book) {
    const opponents = [...new Set(PACKAGED_BOOKS.map((b) => b.against))].join(', ');
    throw new RangeError(`unknown opponent ${JSON.stringify(against)}; choose one of ${opponents}`);
  }
  const source = `tictactoe-book/books/${book.file}`;
  let bytes;
  try {
    bytes = await readBytes(new URL(`./books/${book.file}`, import.meta.url));
  } catch (error) {
    throw new BookError('unreadable', `${source}: cannot be read (${error.message}) [unreadable]`);
  }
  return loadBook(bytes, { rules: { rows: 3, cols: 3, k: 3, misere }, source });
}
