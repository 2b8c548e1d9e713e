// The page's hint (web/hints.js) for tests/test_web_hints.py, one node process per book: reads
// JSON lines on stdin and answers one JSON line each.
//   {"board": "...", "first": "X"}   ->  {"why": "...", "book": [cells], "words": ["draw", ...]}
//   {"ratio": ["n", "d"]}            ->  {"float": x}   (the double of n/d, BigInt strings)
//   {"fixed": x, "places": p}        ->  {"text": "..."}
// Every question about boards shares one set of play-outs per first mark, as a game's hints do
// (the budget is per hint, so on 3x3 and 3x4 every chance is counted either way).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { loadBook } from '../clients/js/tictactoe-book.js';
import { Ratio, fixed, moveHints, why } from '../web/hints.js';

const book = loadBook(readFileSync(process.argv[2]), { rules: null });
const walks = { X: new Map(), O: new Map() };

function answer(question) {
  if (question.ratio) return { float: new Ratio(BigInt(question.ratio[0]), BigInt(question.ratio[1])).toNumber() };
  if ('fixed' in question) return { text: fixed(question.fixed, question.places) };
  const { board, first } = question;
  const hints = moveHints(book, board, { first, walks: walks[first] });
  return { why: why(hints, book.against), book: hints.filter((h) => h.book).map((h) => h.cell), words: hints.map((h) => h.words) };
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  process.stdout.write(`${JSON.stringify(answer(JSON.parse(line)))}\n`);
}
