// npm's prepack and postpack for the package (package.json's scripts): `node stage-books.mjs`
// copies into this folder what the package ships from elsewhere in the repository, the books
// (book/, each proven by this reader for the rules it is shipped for, so that a book that does
// not prove fails the pack) and the licence; `node stage-books.mjs --remove` takes them away
// again once the tarball is written. Nothing it copies is committed here: the repository's
// book/ and LICENSE are the only copies.

import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { PACKAGED_BOOKS } from './packaged.js';
import { loadBook } from './tictactoe-book.js';

const here = new URL('./', import.meta.url);
const repository = new URL('../../', import.meta.url);
const books = new URL('books/', here);

function stage() {
  mkdirSync(books, { recursive: true });
  for (const { file, misere, against } of PACKAGED_BOOKS) {
    const bytes = readFileSync(new URL(`book/${file}`, repository));
    const reader = loadBook(bytes, { rules: { rows: 3, cols: 3, k: 3, misere }, source: `book/${file}` });
    if (reader.against !== against) throw new Error(`book/${file} ranks its moves against ${reader.against}, not ${against}`);
    writeFileSync(new URL(file, books), bytes);
  }
  copyFileSync(new URL('LICENSE', repository), new URL('LICENSE', here));
}

function remove() {
  rmSync(books, { recursive: true, force: true });
  rmSync(new URL('LICENSE', here), { force: true });
}

if (process.argv[2] === '--remove') {
  remove();
} else {
  try {
    stage();
  } catch (error) {
    remove(); // nothing half staged is left behind
    console.error(`stage-books.mjs: ${error.message}`); // one line, no stack: the pack stops here
    process.exitCode = 1;
  }
}
