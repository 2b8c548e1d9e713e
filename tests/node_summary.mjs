// A node:test reporter for `make test`: one line of counts at the end of the run (tests, passed,
// failed, skipped, and the time), from the run's own summary. Used beside node's dot reporter,
// which marks each test and prints every failure in full.
export default async function* summary(source) {
  const counts = {};
  for await (const { type, data } of source) {
    if (type === 'test:diagnostic' && data.nesting === 0) {
      const [name, value] = data.message.split(' ');
      counts[name] = value;
    }
  }
  const ms = Number(counts.duration_ms ?? 0);
  yield `node --test: ${counts.tests} tests, ${counts.pass} passed, ${counts.fail} failed, ` +
    `${counts.skipped} skipped, in ${(ms / 1000).toFixed(1)} s\n`;
}
