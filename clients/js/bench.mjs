// The cost of proving a book in the JavaScript reader:
//
//   node clients/js/bench.mjs [BOOK] [RUNS] [--3x4]
//
// prints one JSON line of medians in milliseconds (make bench reads load_ms, parse_ms and
// json_parse_ms from it):
//   load_ms         loadBook on the file's bytes: limits, UTF-8, strict parse and the proof
//   parse_ms        the strict parser alone (parseStrictJSON on the decoded text)
//   json_parse_ms   JSON.parse alone on the same text, the yardstick: ratios to it carry from one
//                   machine (or one load of a shared machine) to another better than milliseconds
//   proof_ms        load_ms - parse_ms: the limits, the decoding and steps 4-15
//   proof_us_per_entry   proof_ms per entry, in microseconds
//   cached_load_ms  loadBookCached on bytes whose SHA-256 is recorded (the page's second visit)
//   sha256_ms       the SHA-256 alone (crypto.subtle)
// --3x4 adds the same figures for a 3x4 k=3 book written by make-v2-book.mjs to a temporary
// directory (about a second to build), under "3x4". RUNS defaults to 50 for a book under 1 MB,
// 5 above.
//
//   node clients/js/bench.mjs --refusals RUNS VALID DAMAGED...
//
// instead times loadBook on the valid book and its refusal of each damaged one (every one must
// be refused), alternated, RUNS rounds after one unmeasured load of VALID: {"valid_ms": ..., "refused_ms": {DAMAGED: ...}}, medians.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBook, loadBookCached, parseStrictJSON, sha256Hex } from './tictactoe-book.js';
import { makeBook } from './make-v2-book.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const path = args[0] ?? fileURLToPath(new URL('../../book/tictactoe.json', import.meta.url));
const runsGiven = args[1] === undefined ? null : Number(args[1]);

/**
 * The median time of `runs` calls of `work` (awaited), after unmeasured ones to warm the JIT up:
 * at least 3, and up to 200 within half a second (five calls left the 3x3 proof ten times slower
 * than it settles at).
 */
async function median(work, runs) {
  const warm = performance.now();
  for (let i = 0; i < 200 && (i < 3 || performance.now() - warm < 500); i++) await work();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(runs / 2)].toFixed(3));
}

/** Every figure for the book in `bytes`. */
async function figures(bytes, source) {
  const runs = runsGiven ?? (bytes.length < 1_000_000 ? 50 : 5);
  const text = bytes.toString('utf8');
  const entries = JSON.parse(text).counts.entries;
  const load = await median(() => loadBook(bytes, { rules: null, source }), runs);
  const parse = await median(() => parseStrictJSON(text), runs);
  const jsonParse = await median(() => JSON.parse(text), runs);
  const items = new Map();
  const storage = { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v) };
  await loadBookCached(bytes, { rules: null, source, storage, recordAbove: 0 });
  const proof = load - parse;
  return {
    load_ms: load,
    parse_ms: parse,
    json_parse_ms: jsonParse,
    proof_ms: Number(proof.toFixed(3)),
    proof_us_per_entry: Number(((proof * 1000) / entries).toFixed(3)),
    cached_load_ms: await median(() => loadBookCached(bytes, { rules: null, source, storage }), runs),
    sha256_ms: await median(() => sha256Hex(bytes), runs),
    load_over_json_parse: Number((load / jsonParse).toFixed(2)),
    entries,
    bytes: bytes.length,
    runs,
  };
}

/** Medians of loadBook on `valid` and of its refusal of each of `damaged`, alternated. */
async function refusals(runs, valid, damaged) {
  const books = [valid, ...damaged].map((file) => [file, readFileSync(file)]);
  const times = new Map(books.map(([file]) => [file, []]));
  await loadBook(books[0][1], { rules: null, source: valid }); // unmeasured: the JIT warms up
  for (let round = 0; round < runs; round++) {
    for (const [file, bytes] of books) {
      const start = performance.now();
      let refused = false;
      try {
        await loadBook(bytes, { rules: null, source: file });
      } catch (error) {
        if (error?.name !== 'BookError') throw error;
        refused = true;
      }
      times.get(file).push(performance.now() - start);
      if (refused !== (file !== valid)) throw new Error(`${file}: ${refused ? 'refused' : 'not refused'}`);
    }
  }
  const median = (list) => Number([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)].toFixed(3));
  return {
    valid_ms: median(times.get(valid)),
    refused_ms: Object.fromEntries(damaged.map((file) => [file, median(times.get(file))])),
  };
}

if (process.argv.includes('--refusals')) {
  const [runs, valid, ...damaged] = args;
  console.log(JSON.stringify(await refusals(Number(runs), valid, damaged)));
  process.exit(0);
}

const result = await figures(readFileSync(path), path);
if (process.argv.includes('--3x4')) {
  const folder = mkdtempSync(join(tmpdir(), 'ttt-js-bench-'));
  try {
    const file = join(folder, '3x4.json');
    writeFileSync(file, makeBook({ rows: 3, cols: 4, k: 3 }));
    result['3x4'] = await figures(readFileSync(file), file);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
console.log(JSON.stringify({ ...result, node: process.versions.node }));
