// Run with `node --test clients/js/` (make test does). The package's two entries: index.js (browsers
// and bundlers: the books fetched) and node.js (Node: the books read from the file system) export
// the same names, the reader's and loadPackagedBook; index.js names every packaged book in a
// literal URL (what bundlers copy) and nothing of Node's. tests/test_packages.py installs the
// packed tarball and tries both for real (Node, Chromium, Vite, esbuild, webpack).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as browser from './index.js';
import * as node from './node.js';
import * as reader from './tictactoe-book.js';

const here = fileURLToPath(new URL('./', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

test('both entries export the reader whole, PACKAGED_BOOKS, loadPackagedBook and openPartsBook, and nothing else', () => {
  const names = Object.keys(reader).concat(['PACKAGED_BOOKS', 'loadPackagedBook', 'openPartsBook']).sort();
  assert.deepEqual(Object.keys(browser).sort(), names);
  assert.deepEqual(Object.keys(node).sort(), names);
  assert.equal(browser.PACKAGED_BOOKS, node.PACKAGED_BOOKS);
  assert.equal(browser.Position, reader.Position);
});

test('index.js names each packaged book in one literal URL, and imports nothing of Node\'s', () => {
  const text = readFileSync(`${here}index.js`, 'utf8');
  const literals = [...text.matchAll(/new URL\('\.\/books\/([^']+)', import\.meta\.url\)/g)].map((m) => m[1]);
  assert.deepEqual(literals.sort(), browser.PACKAGED_BOOKS.map((b) => b.file).sort());
  assert.equal(text.match(/new URL\(/g).length, literals.length);
  for (const file of ['index.js', 'packaged.js', 'tictactoe-book.js']) {
    assert.doesNotMatch(readFileSync(`${here}${file}`, 'utf8'), /\bfrom 'node:|import\('node:/, file);
  }
});

/** Runs `body` with globalThis.fetch answering from `answer(url)`; returns what it resolves to. */
async function withFetch(answer, body) {
  const real = globalThis.fetch;
  const asked = [];
  globalThis.fetch = async (url) => {
    asked.push(String(url));
    return answer(String(url));
  };
  try {
    return { result: await body(), asked };
  } finally {
    globalThis.fetch = real;
  }
}

const fromBookFolder = (url) => {
  const file = url.split('/').at(-1);
  return new Response(readFileSync(`${root}book/${file}`), { headers: { 'content-type': 'application/json' } });
};

test('index.js fetches each book from books/ beside it and proves it', async () => {
  for (const { file, misere, against } of browser.PACKAGED_BOOKS) {
    const { result: book, asked } = await withFetch(fromBookFolder, () => browser.loadPackagedBook({ misere, against }));
    assert.deepEqual(asked, [new URL(`./books/${file}`, import.meta.url).href]);
    assert.equal(book.rules.misere, misere);
    assert.equal(book.against, against);
  }
});

test('index.js: a missing book, or a page where the book should be, is unreadable; a damaged one fails its proof', async () => {
  const refused = async (answer) => {
    try {
      await withFetch(answer, () => browser.loadPackagedBook());
    } catch (error) {
      return [error.name, error.code, error.message];
    }
    return null;
  };
  // what the Vite 7 dev server answers for a file it does not have: its own page, with 200
  const page = () => new Response('<!doctype html><title>app</title>', { headers: { 'content-type': 'text/html' } });
  const [name, code, message] = await refused(page);
  assert.deepEqual([name, code], ['BookError', 'unreadable']);
  assert.match(message, /^tictactoe-book\/books\/tictactoe\.json: cannot be read \(.*books\/tictactoe\.json answered with an HTML page, not the book\) \[unreadable\]$/);
  assert.deepEqual((await refused(() => new Response('', { status: 404 }))).slice(0, 2), ['BookError', 'unreadable']);
  const damaged = () => new Response(readFileSync(`${root}book/tictactoe.json`, 'utf8').replace('"........X":"0 4"', '"........X":"0 0"'));
  assert.deepEqual((await refused(damaged)).slice(0, 2), ['BookError', 'entry-inconsistent']);
  await assert.rejects(browser.loadPackagedBook({ against: 'expert' }), RangeError);
});

test('the package ships a book for every reference opponent, normal and misère', () => {
  for (const { name } of reader.OPPONENTS) {
    for (const misere of [false, true]) {
      assert.equal(browser.PACKAGED_BOOKS.filter((b) => b.against === name && b.misere === misere).length, 1, `${name} ${misere}`);
    }
  }
});

test('loadPackagedBook\'s messages repeat a long value cut, not whole', async () => {
  // issue 41, item 13: the opponent's name and misere were repeated whole
  const long = 'z'.repeat(5000);
  await assert.rejects(browser.loadPackagedBook({ against: long }), (e) => e instanceof RangeError
    && e.message === `unknown opponent "${'z'.repeat(100)}"... (5,000 characters); choose one of novice, random`);
  await assert.rejects(browser.loadPackagedBook({ misere: long }), (e) => e instanceof TypeError && e.message.length < 150);
  await assert.rejects(browser.loadPackagedBook({ against: 'constructor' }), RangeError);
});

test('index.js reads no more of a book than a book may have: a body past 64 MiB is cancelled there, refused with limits', async () => {
  // issue 41, item 9: a server (a dev server's fallback, a proxy) answering with 100 MB was read whole
  const made = { bytes: 0, cancelled: false };
  const body = () => new Response(new ReadableStream({
    pull(controller) {
      if (made.bytes >= 100_000_000) return controller.close();
      made.bytes += 1 << 20;
      return controller.enqueue(new Uint8Array(1 << 20).fill(0x20));
    },
    cancel() {
      made.cancelled = true;
    },
  }, { highWaterMark: 0 }), { headers: { 'content-type': 'application/json' } });
  await assert.rejects(withFetch(body, () => browser.loadPackagedBook()), (e) => e instanceof reader.BookError && e.code === 'limits'
    && e.message.startsWith('tictactoe-book/books/tictactoe.json: is more than 67108864 bytes long'));
  assert.ok(made.bytes <= reader.MAX_BOOK_BYTES + (1 << 20) && made.cancelled, JSON.stringify(made));
});
