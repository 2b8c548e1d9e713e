// A Node client of `ttt-play --engine` through a pipe (tests/test_engine.py runs it).
// argv: the ttt-play program, then request lines; prints each answer line as it came.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [program, ...requests] = process.argv.slice(2);
const child = spawn(program, ['--engine'], { stdio: ['pipe', 'pipe', 'inherit'] });
const answers = createInterface({ input: child.stdout });
const pending = [];
answers.on('line', (line) => pending.shift()(line));
const ask = (request) => new Promise((resolve) => { pending.push(resolve); child.stdin.write(request + '\n'); });
for (const request of requests) {
  const answer = await ask(request);
  JSON.parse(answer); // every answer is one JSON value
  console.log(answer);
}
child.stdin.end();
child.on('exit', (code) => { console.log(`exit ${code}`); });
