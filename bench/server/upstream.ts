import { startFakeLlm } from '../../src/testing/index.js';

/**
 * Child process of `npm run bench:server`: the fake LLM server both paths call. It answers every
 * request with the same short text (streams: one event per word, written as fast as possible),
 * reports its port to the parent, and forgets its records when told (it keeps every request).
 */
const fake = await startFakeLlm({
  reply: { text: 'A short answer of about a dozen words, as a small model would give.' },
});
process.send?.({ port: Number(new URL(fake.url).port) });
process.on('message', (message: { type?: string }) => {
  if (message.type === 'reset') fake.reset();
  if (message.type === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => {
  void fake.close().then(() => process.exit(0));
});
