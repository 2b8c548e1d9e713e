// The npm package tictactoe-book for Node (package.json's "node" export; browsers and bundlers
// building for them take index.js): the same exports, the packaged books and a book by parts
// (openPartsBook) read from the file system.

import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { loadPackaged } from './packaged.js';
import { BookError, MAX_BOOK_BYTES, loadPartsBook } from './tictactoe-book.js';

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

/**
 * The first bytes of the regular file at `path`, up to `limit` + 1 of them (a longer file is
 * refused by its length anyway); an Error saying why it cannot be read. Opened without blocking,
 * so a FIFO or a device is refused rather than waited on (as Python's read_book_bytes).
 */
async function readRegularFile(path, limit) {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new Error(error.code === 'ENOENT' ? 'no such file' : `cannot be opened (${error.message})`);
  }
  try {
    const found = await handle.stat();
    if (!found.isFile()) throw new Error(found.isDirectory() ? 'is a directory' : 'is not a regular file');
    const bytes = new Uint8Array(Math.min(found.size, limit + 1));
    let length = 0;
    while (length < bytes.length) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break; // the file shrank as it was read
      length += bytesRead;
    }
    return bytes.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** A zlib stream inflated with node:zlib: at most `limit` bytes, and no byte after the stream. */
function inflateZlib(raw, limit) {
  let inflated;
  try {
    inflated = inflateSync(raw, { info: true, maxOutputLength: limit + 1 });
  } catch (error) {
    throw new Error(error.code === 'ERR_BUFFER_TOO_LARGE' ? `it holds more than ${limit} bytes` : error.message);
  }
  if (inflated.engine.bytesWritten !== raw.length) throw new Error('bytes follow the end of the stream');
  return inflated.buffer;
}

/**
 * A book by parts from the file system (docs/book-parts.md): `where` is its folder, or its
 * manifest.json (a path, or a file: URL). The manifest is read and checked now (loadPartsBook),
 * the parts as answers need them, each read from the folder, checked against the manifest's
 * length and SHA-256 (node:crypto) and inflated (node:zlib). Options: loadPartsBook's (`rules`,
 * `source`, `cacheParts`). Resolves to the reader; rejects with BookError (`unreadable` when the
 * manifest cannot be read).
 */
export async function openPartsBook(where, options) {
  const path = where instanceof URL ? fileURLToPath(where) : where;
  if (typeof path !== 'string' || path === '') throw new TypeError(`openPartsBook takes a folder or a manifest's path, got ${JSON.stringify(where)}`);
  const folderGiven = await stat(path).then((found) => found.isDirectory(), () => false);
  const manifest = folderGiven ? join(path, 'manifest.json') : path;
  const { source = manifest, ...rest } = options ?? {};
  let bytes;
  try {
    bytes = await readRegularFile(manifest, MAX_BOOK_BYTES);
  } catch (error) {
    throw new BookError('unreadable', `${source}: cannot be read (${error.message}) [unreadable]`);
  }
  const folder = dirname(manifest);
  return loadPartsBook(bytes, {
    ...rest,
    source,
    readPart: (file, length) => readRegularFile(join(folder, file), length),
    sha256: (raw) => createHash('sha256').update(raw).digest('hex'),
    inflate: inflateZlib,
  });
}
