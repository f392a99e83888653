// A stand-in helper for the client's unit tests: it speaks the framing and a few methods, and misbehaves on
// purpose as FAKE_HELPER_MODE says. It never stands in for a real helper anywhere else.
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

const mode = process.env.FAKE_HELPER_MODE ?? 'ok';
const connection = createMessageConnection(
  new StreamMessageReader(process.stdin),
  new StreamMessageWriter(process.stdout),
);

connection.onRequest('system.hello', () => ({
  protocolVersion: mode === 'old-version' ? 0 : 1,
  helperVersion: 'fake',
  platform: 'linux',
  capabilities: {
    accessibility: { available: true, detail: 'fake' },
    display: { available: true, detail: 'fake' },
    input: { available: false, detail: 'fake' },
    screenCapture: { available: false, detail: 'fake' },
  },
}));
connection.onRequest('apps.list', async () => {
  process.stderr.write('listing apps\n');
  if (mode === 'die') process.exit(3);
  if (mode === 'hang') return new Promise(() => {});
  if (mode === 'bad-result') return { apps: 'none' };
  return { apps: [] };
});
connection.onRequest('observe.start', () => {
  setTimeout(
    () => connection.sendNotification('observe.changed', { pid: 7, kinds: ['children-changed'], count: 2 }),
    10,
  );
  return {};
});
connection.listen();
process.stdin.on('end', () => process.exit(0));
