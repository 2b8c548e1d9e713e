// The cost of proving a book in the JavaScript reader: `node clients/js/bench.mjs [BOOK] [RUNS]`
// prints one JSON line of medians in milliseconds (make bench reads it):
//   load_ms        loadBook on the file's bytes: limits, UTF-8, strict parse and the proof
//   parse_ms       the strict parser alone (parseStrictJSON on the decoded text)
//   json_parse_ms  JSON.parse alone on the same text, for comparison
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadBook, parseStrictJSON } from './tictactoe-book.js';

const path = process.argv[2] ?? fileURLToPath(new URL('../../book/tictactoe.json', import.meta.url));
const runs = Number(process.argv[3] ?? 50);
const bytes = readFileSync(path);
const text = bytes.toString('utf8');

/** The median time of `runs` calls of `work`, after a few unmeasured ones to warm the JIT up. */
function median(work) {
  for (let i = 0; i < 5; i++) work();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Number(times[Math.floor(runs / 2)].toFixed(3));
}

console.log(JSON.stringify({
  load_ms: median(() => loadBook(bytes, { rules: null, source: path })),
  parse_ms: median(() => parseStrictJSON(text)),
  json_parse_ms: median(() => JSON.parse(text)),
  runs,
  node: process.versions.node,
}));
