// A test-only writer of books by parts (docs/book-parts.md, format version 3): a version-2 book's
// document cut into a manifest and zlib-compressed parts as `ttt-book split` cuts it (Python's
// tictactoe_generator.parts.split_document: each layer's keys in order, in runs of at most
// `partEntries`, named LL-NNNNN.part), so that the Node tests of the reader by parts need no
// Python. It is NOT the project's writer: tests/test_parts_js.py checks that it cuts a book into
// the same parts, line for line, as `ttt-book split` does (the compressed bytes may differ with
// the zlib: Node's is not Python's).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

/** A value with every object's members in sorted order, as the writers' JSON has them. */
const sorted = (value) => {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((name) => [name, sorted(value[name])]));
};

/**
 * The files of the book by parts holding the version-2 book `doc` (its parsed JSON): a Map of
 * each file's name to its bytes, manifest.json first.
 */
export function splitBook(doc, { partEntries = 4096 } = {}) {
  const cells = doc.rules.cells;
  const layer = (key) => cells - [...key].filter((c) => c === '.').length;
  const keys = Object.keys(doc.entries).sort((a, b) => layer(a) - layer(b) || (a < b ? -1 : a > b ? 1 : 0));
  const files = new Map();
  const parts = [];
  let at = 0;
  while (at < keys.length) {
    const marks = layer(keys[at]);
    let end = at;
    while (end < keys.length && layer(keys[end]) === marks) end++;
    for (let start = at, index = 0; start < end; start += partEntries, index++) {
      const run = keys.slice(start, Math.min(start + partEntries, end));
      const data = deflateSync(Buffer.from(run.map((key) => `${key} ${doc.entries[key]}\n`).join(''), 'ascii'), { level: 9 });
      const file = `${String(marks).padStart(2, '0')}-${String(index).padStart(5, '0')}.part`;
      files.set(file, new Uint8Array(data));
      parts.push({ file, layer: marks, first: run[0], last: run.at(-1), entries: run.length, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    }
    at = end;
  }
  const { entries, ...header } = doc;
  const manifest = `${JSON.stringify(sorted({ ...header, version: 3, parts }))}\n`;
  return new Map([['manifest.json', new TextEncoder().encode(manifest)], ...files]);
}

/** Write `files` (splitBook's) into the folder `folder`, made if need be; returns the folder. */
export function writeFolder(folder, files) {
  mkdirSync(folder, { recursive: true });
  for (const [name, bytes] of files) writeFileSync(join(folder, name), bytes);
  return folder;
}
