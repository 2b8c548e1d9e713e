// A long-lived judge of book files for the Python tests (tests/judges.py): reads one book path per
// line on stdin and answers one JSON line per book on stdout:
//   {"valid": true}                    the reader accepts the book
//   {"code": "...", "message": "..."}  it refuses it with a BookError
//   {"crash": "..."}                   it threw anything else (a reader must never do that)
//
// loadBook takes text, so the judge decodes the file's bytes as strict UTF-8 and keeps a BOM
// (ignoreBOM) for the reader to refuse. Bytes that are not UTF-8 cannot be handed over as text
// at all; the judge answers for them with the code the spec gives ("json", step 3) and says so.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { BookError, loadBook } from '../clients/js/tictactoe-book.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function judge(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    return { crash: `judge cannot read ${path}: ${error.message}` };
  }
  let text;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { code: 'json', message: 'judge: the bytes are not UTF-8' };
  }
  try {
    loadBook(text);
    return { valid: true };
  } catch (error) {
    if (error instanceof BookError) return { code: error.code ?? null, message: String(error.message).slice(0, 200) };
    return { crash: `${error?.name}: ${String(error?.message).slice(0, 200)}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) process.stdout.write(`${JSON.stringify(judge(line))}\n`);
