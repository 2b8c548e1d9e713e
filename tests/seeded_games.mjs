// The JavaScript reader's seeded games, for tests/test_seeded_games.py: for each level and each
// seed from FIRST to LAST, the game from the empty board where both sides play at that level,
// every move chooseMove's with one Rng(seed) (docs/porting.md, "5. Levels").
// argv: BOOK FIRST LAST; prints one line per game: "LEVEL SEED moves=a,b,... state=S".
import { readFileSync } from 'node:fs';
import { LEVELS, Position, Rng, loadBook } from '../clients/js/tictactoe-book.js';

const [bookPath, first, last] = process.argv.slice(2);
const book = loadBook(readFileSync(bookPath), { source: bookPath });
const lines = [];
for (const level of LEVELS) {
  for (let seed = Number(first); seed <= Number(last); seed++) {
    const rng = new Rng(seed);
    const moves = [];
    let position = Position.empty(book.rules);
    while (!position.isOver) {
      moves.push(book.chooseMove(position, { level, rng }));
      position = position.play(moves.at(-1));
    }
    lines.push(`${level} ${seed} moves=${moves.join(',')} state=${rng.state}`);
  }
}
console.log(lines.join('\n'));
