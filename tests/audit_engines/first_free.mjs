// A test engine in JavaScript: it plays the lowest free cell, whatever the position.
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  console.log(line.trim().indexOf('.'));
}
