// The npm package tictactoe-book for browsers and bundlers (package.json's "default" export; Node
// takes node.js): the reader (tictactoe-book.js, exported whole) and the books the package
// ships, fetched from beside this module, and a book by parts fetched from its URL
// (openPartsBook). Nothing here reads files, so a bundler building for a browser finds nothing
// of Node's to resolve.

import { loadPackaged } from './packaged.js';
import { fetchPartsBook, readBookResponse } from './tictactoe-book.js';

export * from './tictactoe-book.js';
export { PACKAGED_BOOKS } from './packaged.js';

// Each book's address written out whole, one literal each: bundlers (webpack 5, Vite's build)
// copy into the build the files named by a URL made of a literal and import.meta.url, and only
// those.
// PACKAGED_BOOKS lists the same files (a test checks the two agree).
const URLS = {
  'tictactoe.json': () => new URL('./books/tictactoe.json', import.meta.url),
  'tictactoe-misere.json': () => new URL('./books/tictactoe-misere.json', import.meta.url),
  'tictactoe-vs-random.json': () => new URL('./books/tictactoe-vs-random.json', import.meta.url),
  'tictactoe-misere-vs-random.json': () => new URL('./books/tictactoe-misere-vs-random.json', import.meta.url),
};

async function fetchBook(file) {
  const url = URLS[file]();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP status ${response.status}`);
  // A dev server that moved this module away from books/ may answer with its page instead.
  if (/^text\/html\b/i.test(response.headers.get('content-type') ?? '')) {
    throw new Error(`${url} answered with an HTML page, not the book`);
  }
  // The bytes, not text(): the reader checks them as the format says (UTF-8, no BOM); and no
  // more of them than a book may have (a BookError 'limits').
  return readBookResponse(response, { source: `tictactoe-book/books/${file}` });
}

/**
 * Load and prove a book the package ships: the 3x3 book, or with `misere` the 3x3 misère book
 * (completing a line loses), its moves ranked to beat `against` first ('novice' or 'random').
 * Fetched from beside this module: a page must serve the package's folder, and a bundler must
 * copy the books it names (webpack 5 and Vite's build do; the README says what to do for the
 * others). Resolves to the reader loadBook returns; rejects with BookError ('unreadable' when the
 * book cannot be fetched).
 */
export function loadPackagedBook(options) {
  return loadPackaged(options, fetchBook);
}

/**
 * A book by parts over HTTP (docs/book-parts.md): fetchPartsBook. `where` is the folder's URL or
 * its manifest.json's, relative to the page. Node's entry (node.js) reads a folder from the file
 * system under the same name, so code that opens a book by parts runs in both.
 */
export function openPartsBook(where, options) {
  return fetchPartsBook(where, options);
}
