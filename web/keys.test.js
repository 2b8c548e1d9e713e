// Run with `node --test web/` (make test-js runs it). Typing a cell's number (web/keys.js) on
// boards of 9, 16 and 20 cells: which digits wait for a second one, and the help that says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keysHelp, pendingWords, typeDigit } from './keys.js';

test('on 9 cells a digit is a cell', () => {
  assert.deepEqual(typeDigit('', '1', 9), { cell: 0 });
  assert.deepEqual(typeDigit('', '9', 9), { cell: 8 });
  assert.match(keysHelp(9, 3), /1 2 3 \/ 4 5 6 \/ 7 8 9/);
});

test('on 16 cells 1 waits for a second digit, 2 does not', () => {
  assert.deepEqual(typeDigit('', '1', 16), { pending: '1' });
  assert.deepEqual(typeDigit('1', '6', 16), { cell: 15 });
  assert.deepEqual(typeDigit('', '2', 16), { cell: 1 });
  assert.equal(pendingWords('1', 16), 'Typed 1: type a second digit for 10 to 16, or Enter for 1.');
  assert.match(keysHelp(16, 4), /for cell 1 type 1 then Enter, since 1 could start 10 to 16\)/);
});

test('on 20 cells (4x5, a book by parts) 1 and 2 both wait, and the help names both', () => {
  assert.deepEqual(typeDigit('', '2', 20), { pending: '2' });
  assert.deepEqual(typeDigit('2', '0', 20), { cell: 19 });
  assert.ok('refused' in typeDigit('2', '1', 20));
  assert.deepEqual(typeDigit('', '3', 20), { cell: 2 });
  assert.equal(pendingWords('2', 20), 'Typed 2: type 0 for 20, or Enter for 2.');
  const help = keysHelp(20, 5);
  assert.match(help, /for cells 1 and 2 type the digit then Enter, since each could start a cell from 10 to 20/);
  assert.doesNotMatch(help, /for cell 1 type 1/);
});
