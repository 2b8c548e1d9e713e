// Parts vectors against this reader of books by parts (docs/conformance.md, "Parts vectors";
// the format: docs/book-parts.md). `node clients/js/check-parts-vectors.mjs [VECTORS]` (default
// book/parts-vectors.json) prints each failure and exits 1 if there is one; the tests import
// checkPartsVectors. A port reads it as a recipe: build each case's folder from the base and
// the edits, open it as its reader opens a book by parts, ask the probes, compare.
//
// The folders live in memory: the reader is fetchPartsBook over a fetch that answers from them
// (404 for a file not there), as a page reads a book by parts from a server, with the
// browser's SHA-256 and inflater (Web Crypto, DecompressionStream) unless others are given.

import { readFileSync } from 'node:fs';
import { BookError, fetchPartsBook } from './tictactoe-book.js';

const WORDS = { 1: 'win', 0: 'draw', '-1': 'loss' };
/** Where the folder of a case seems to be: a name no server answers (the fetch is ours). */
const FOLDER = 'https://parts-vectors.invalid/book/';
const MANIFEST = 'manifest.json';

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const fromBase64 = (text) => new Uint8Array(Buffer.from(text, 'base64'));
const decode = (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);
const encode = (text) => new TextEncoder().encode(text);

/** `text` with its one occurrence of `find` (overlapping ones count) replaced by `replace`, `times` times over. */
function replaceOnce(text, find, replace, times = 1) {
  const at = text.indexOf(find);
  if (at < 0 || text.indexOf(find, at + 1) >= 0) throw new Error(`${JSON.stringify(find.slice(0, 60))} is ${at < 0 ? 'not found' : 'found more than once'}`);
  return text.slice(0, at) + replace.repeat(times) + text.slice(at + find.length);
}

/** The folder (a Map of file names to bytes) that `edits` make of `files` (docs/conformance.md, "Parts vectors"). */
export function applyEdits(files, edits) {
  const folder = new Map(files);
  for (const edit of edits) {
    const name = edit.file;
    const bytes = folder.get(name);
    if ('text' in edit) folder.set(name, encode(edit.text));
    else if ('base64' in edit) folder.set(name, fromBase64(edit.base64));
    else if (bytes === undefined) throw new Error(`no file ${name}`);
    else if ('find' in edit) folder.set(name, encode(replaceOnce(decode(bytes), edit.find, edit.replace, edit.times)));
    else if (edit.delete === true) folder.delete(name);
    else if ('flip' in edit) {
      const flipped = bytes.slice();
      flipped[edit.flip] ^= 0x01;
      folder.set(name, flipped);
    } else if ('keep' in edit) folder.set(name, bytes.slice(0, edit.keep));
    else if ('append' in edit) {
      const tail = fromBase64(edit.append);
      const longer = new Uint8Array(bytes.length + tail.length);
      longer.set(bytes);
      longer.set(tail, bytes.length);
      folder.set(name, longer);
    } else if ('swap' in edit) {
      folder.set(name, folder.get(edit.swap));
      folder.set(edit.swap, bytes);
    } else throw new Error(`${JSON.stringify(Object.keys(edit))} is no edit`);
  }
  return folder;
}

/** The file a message names: the last segment of what comes before its first ': '. */
const namedFile = (message) => String(message).split(': ')[0].split('/').pop();

/**
 * The default opener: a reader of the book by parts in `folder` (a Map), by fetchPartsBook over a
 * fetch that answers from it; `fetched` records the part files it reads.
 */
export function fetchFolder(folder, fetched) {
  const fetch = async (url) => {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop());
    if (name !== MANIFEST) fetched.push(name);
    const bytes = folder.get(name);
    return bytes === undefined ? new Response('not found', { status: 404 }) : new Response(bytes.slice());
  };
  return fetchPartsBook(FOLDER, { fetch });
}

/**
 * What a refusal says, as the vectors write it: a BookError's code and the file its message
 * names (a message is one line ending in the code in brackets); anything else is a crash.
 */
function refusal(error) {
  if (!(error instanceof BookError)) return { crash: `${error?.name}: ${error?.message}` };
  if (!String(error.message).endsWith(` [${error.code}]`) || /\n/.test(error.message)) return { badMessage: error.message };
  return { refused: error.code, file: namedFile(error.message) };
}

/**
 * Every way a reader disagrees with the parts vectors `vectors`, as {name, what} (the case and
 * what went wrong); empty when it passes them all. `open(folder, fetched)` opens a fresh reader
 * of a case's folder (a Map of file names to bytes; default fetchFolder) and may record the names
 * of the part files it reads in the array `fetched`; the reader's own `reads` and `bytesRead` are
 * checked whatever it records.
 */
export async function checkPartsVectors(vectors, { open = fetchFolder } = {}) {
  const failures = [];
  const base = applyEdits(new Map(), vectors.base);
  for (const c of vectors.cases) {
    const fail = (what) => failures.push({ name: c.name, what });
    let folder;
    try {
      folder = applyEdits(base, c.edits);
    } catch (error) {
      fail(`the edits do not apply: ${error.message}`);
      continue;
    }
    if (!c.opens) {
      try {
        await open(folder, []);
        fail(`opened, not refused with ${c.expect}`);
      } catch (error) {
        const got = refusal(error);
        if (!same(got, { refused: c.expect, file: c.file })) fail(`refused with ${JSON.stringify(got)}, not ${c.expect} naming ${c.file}`);
      }
      continue;
    }
    let reader;
    try {
      reader = await open(folder, []);
    } catch (error) {
      fail(`not opened: ${JSON.stringify(refusal(error))}`);
      continue;
    }
    if (c.expect === 'valid' && reader.against !== c.against) fail(`ranked against ${reader.against}, not ${c.against}`);
    for (const probe of c.probes) {
      const where = `${probe.board} (first ${probe.first})`;
      const fetched = [];
      let got;
      let fresh;
      try {
        fresh = await open(folder, fetched);
        const answer = await fresh.evaluate(probe.board, { first: probe.first });
        const { turn, key, plies, scores, tiers } = answer;
        got = { turn, key, value: WORDS[answer.value], plies, scores, tiers };
      } catch (error) {
        got = refusal(error);
      }
      if ('refused' in probe) {
        if (!same(got, { refused: probe.refused, file: probe.file })) fail(`${where}: ${JSON.stringify(got)}, not refused with ${probe.refused} naming ${probe.file}`);
        continue;
      }
      for (const member of ['turn', 'key', 'value', 'plies', 'scores', 'tiers']) {
        if (!same(got[member], probe[member])) fail(`${where}: ${member} ${JSON.stringify(got[member] ?? got)}, not ${JSON.stringify(probe[member])}`);
      }
      const read = [...fetched].sort();
      if (fetched.length && !same(read, [...probe.parts].sort())) fail(`${where}: read ${read.join(' ')}, not ${probe.parts.join(' ')}`);
      const size = new Map(JSON.parse(decode(folder.get(MANIFEST))).parts.map((part) => [part.file, part.bytes]));
      const bytes = probe.parts.reduce((sum, file) => sum + size.get(file), 0);
      if (fresh && (fresh.reads !== probe.parts.length || fresh.bytesRead !== bytes)) {
        fail(`${where}: read ${fresh.reads} parts of ${fresh.bytesRead} bytes, not ${probe.parts.length} of ${bytes}`);
      }
    }
  }
  return failures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2] ?? new URL('../../book/parts-vectors.json', import.meta.url);
  const failures = await checkPartsVectors(JSON.parse(readFileSync(path, 'utf8')));
  for (const { name, what } of failures.slice(0, 40)) console.log(`${name}: ${what}`);
  console.log(`${failures.length} failure(s)`);
  process.exitCode = failures.length ? 1 : 0;
}
