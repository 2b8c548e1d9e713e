// A long-lived judge of book files for the Python tests (tests/judges.py): reads one book path per
// line on stdin and answers one JSON line per book on stdout:
//   {"valid": true, "against": "..."}  the reader accepts the book (and its reader.against)
//   {"code": "...", "message": "..."}  it refuses it with a BookError
//   {"crash": "..."}                   it threw anything else (a reader must never do that)
//
// The reader gets the file's bytes, as the page gives it a fetched file: the size, UTF-8 and
// byte-order-mark rules are the reader's to apply, not the judge's. It takes the rules the file
// states (rules: null), as every judge does (docs/conformance.md): a misère book is judged as one.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BookError, loadBook } from '../clients/js/tictactoe-book.js';

function judge(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return { crash: `judge cannot read ${path}: ${error.message}` };
  }
  try {
    const reader = loadBook(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { rules: null });
    return { valid: true, against: reader.against };
  } catch (error) {
    if (error instanceof BookError) return { code: error.code ?? null, message: String(error.message).slice(0, 200) };
    return { crash: `${error?.name}: ${String(error?.message).slice(0, 200)}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) process.stdout.write(`${JSON.stringify(judge(line))}\n`);
