// The JavaScript reader of books by parts as a judge for the Python tests (tests/test_parts_js.py).
// Reads one JSON array of jobs on stdin and writes one JSON array of results on stdout, a result
// per job:
//   job:    {"folder": PATH, "via": "files" | "fetch", "boards": [[BOARD, FIRST], ...]}, or
//           {"url": URL, "via": "http", "boards": ...}
//   result: {"answers": [ANSWER, ...], "reads": N, "bytesRead": N}, or {"code", "message"} when
//           the book cannot be opened
//   answer: {"value", "plies", "turn", "key", "scores", "tiers"} (evaluate's), or {"code",
//           "message"} (a BookError) or {"crash": "..."} (anything else, which must never be)
// "files" opens the folder with openPartsBook (Node: node:fs, node:crypto, node:zlib); "fetch"
// with fetchPartsBook over a fetch that answers file: URLs from the disk, 404 for a missing
// file (the browser's way: Web Crypto and DecompressionStream); "http" with fetchPartsBook and
// Node's own fetch, from a server (web/serve.py). The boards are asked in order,
// one after the other, as a game asks them.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openPartsBook } from '../clients/js/node.js';
import { BookError, fetchPartsBook } from '../clients/js/tictactoe-book.js';

/** A fetch of file: URLs: the file's bytes, or 404. */
async function fetchFile(url) {
  try {
    return new Response(readFileSync(fileURLToPath(url)), { headers: { 'Content-Type': 'application/octet-stream' } });
  } catch {
    return new Response('not found', { status: 404 });
  }
}

const refusal = (error) => {
  if (error instanceof BookError) return { code: error.code, message: String(error.message) };
  return { crash: `${error?.name}: ${String(error?.message).slice(0, 300)}` };
};

async function run({ folder, url, via, boards }) {
  let book;
  try {
    if (via === 'http') book = await fetchPartsBook(url);
    else if (via === 'fetch') book = await fetchPartsBook(pathToFileURL(`${folder}/`), { fetch: fetchFile });
    else book = await openPartsBook(folder);
  } catch (error) {
    return refusal(error);
  }
  const answers = [];
  for (const [board, first] of boards) {
    try {
      const { value, plies, turn, key, scores, tiers } = await book.evaluate(board, { first });
      answers.push({ value, plies, turn, key, scores, tiers });
    } catch (error) {
      answers.push(refusal(error));
    }
  }
  return { answers, reads: book.reads, bytesRead: book.bytesRead };
}

const jobs = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const job of jobs) results.push(await run(job));
process.stdout.write(`${JSON.stringify(results)}\n`);
