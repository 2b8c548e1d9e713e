// The npm package tictactoe-book for Node (package.json's "node" export; browsers and bundlers
// building for them take index.js): the same exports, the packaged books read from the file
// system.

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadPackaged } from './packaged.js';

export * from './tictactoe-book.js';
export { PACKAGED_BOOKS } from './packaged.js';

// A book is found by the package's name, as an import of 'tictactoe-book/books/FILE' would be:
// from this file (the package refers to itself), or from a bundle that holds this code, through
// the node_modules folders above it (a bundle does not lie beside books/).
const require = createRequire(import.meta.url);

/**
 * Load and prove a book the package ships: the 3x3 book, or with `misere` the 3x3 misère book
 * (completing a line loses), its moves ranked to beat `against` first ('novice' or 'random').
 * Resolves to the reader loadBook returns; rejects with BookError ('unreadable' when the file
 * cannot be found or read).
 */
export function loadPackagedBook(options) {
  return loadPackaged(options, (file) => readFile(require.resolve(`tictactoe-book/books/${file}`)));
}
