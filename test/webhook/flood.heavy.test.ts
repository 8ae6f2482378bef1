// The receiver's memory under any number of senders (issue 29): bodies held across all requests
// in flight are capped (503 with Retry-After past it), and so are open connections (closed at
// once past it); the room comes back as each request ends, however it ends. In-process with
// small caps for the exact answers, then the built binary under 300 held 1 MiB deliveries.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/webhook/signature.js';
import { MAX_CONNECTIONS, MAX_HELD_BYTES, RETRY_AFTER_SECONDS, type Receiver } from '../../src/webhook/receiver.js';
// @ts-expect-error: a plain script, without types (the measuring command docs/limits.md gives)
import { flood, FLOOD_SECRET, startListener, tally } from '../../scripts/webhook-flood.mjs';
import { startTestReceiver } from '../helpers/receiver.js';
import { run } from '../helpers/run.js';
import { until } from '../helpers/wait.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ping = () => `{"type":"ping","timestamp":"${new Date().toISOString()}"}`;

const receivers: Receiver[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(options: { maxHeldBytes?: number; maxConnections?: number; requestTimeoutMs?: number }) {
  const started = await startTestReceiver(SECRET, options);
  receivers.push(started.receiver);
  return started;
}

/** A raw connection: what it has been sent so far, and whether it has closed. */
async function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  const state = { text: '', closed: false, socket };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (state.text += chunk));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  return state;
}

const head = (length: number | 'chunked', signature = sign(SECRET, 'x'), path = '/hooks') =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Signature: ${signature}\r\n${length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`}\r\n\r\n`;

/** A whole signed ping on a connection of its own; its status, or 0 when closed unanswered. */
async function signedPing(port: number, secret = SECRET, path = '/hooks'): Promise<number> {
  const body = ping();
  const connection = await open(port);
  connection.socket.write(`${head(body.length, sign(secret, body), path)}${body}`);
  await until(() => /\r\n\r\n/.test(connection.text) || connection.closed, 'the answer to the ping');
  connection.socket.destroy();
  return connection.text === '' ? 0 : Number(connection.text.split(' ')[1]);
}

/** An answer as its status line, the headers that matter here, and its body. */
function answer(text: string) {
  const [headText, body] = text.split('\r\n\r\n');
  const [status, ...lines] = headText!.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
  );
  return {
    status,
    retryAfter: headers['retry-after'],
    type: headers['content-type'],
    body: body === '' ? '' : JSON.parse(body!),
  };
}

/** The 503 the receiver gives when a body would not fit, exactly. */
const busy = (held: string, max: string) => ({
  status: 'HTTP/1.1 503 Service Unavailable',
  retryAfter: '5',
  type: 'application/json',
  body: { error: `busy: ${held} of bodies held, and this one would go past ${max}; retry after 5 s` },
});

describe('the bytes held across all requests in flight', () => {
  it('are capped: past the cap a delivery gets 503 with Retry-After and is not kept; the room comes back as each ends', async () => {
    const { receiver: r, port, events, rejections } = await receiver({ maxHeldBytes: 3000 });
    // Two slow senders announce 1,400 bytes each and send 100: they hold 2,800 from their headers on.
    const slow = [await open(port), await open(port)];
    for (const s of slow) s.socket.write(`${head(1400)}${'x'.repeat(100)}`);
    await until(() => r.held() === 2800, 'the two slow deliveries to be held');

    const third = await open(port);
    third.socket.write(`${head(300)}${'x'.repeat(300)}`);
    await until(() => third.text.endsWith('}'), 'the 503');
    expect(answer(third.text)).toEqual(busy('2.7 KiB', '2.9 KiB'));
    expect(r.held()).toBe(2800);

    // A small delivery still fits in what is left.
    expect(await signedPing(port)).toBe(204);
    // One slow sender finishes (a body whose signature fails: 401), the other goes away: all the room is back.
    slow[0]!.socket.write('x'.repeat(1300));
    await until(() => slow[0]!.text.startsWith('HTTP/1.1 401 '), 'the first slow delivery to be answered');
    slow[1]!.socket.destroy();
    await until(() => r.held() === 0, 'the room to come back');
    // (Then the one that went away mid-body: `400 malformed request (HPE_INVALID_EOF_STATE)`.)
    expect(rejections.slice(0, 2)).toEqual([
      '503 busy: 2.7 KiB of bodies held, and this one would go past 2.9 KiB; retry after 5 s',
      '401 bad-signature: the signature does not match the body (wrong secret, or the body was changed)',
    ]);
    expect(events).toHaveLength(1);
  });

  it('count a chunked body as it comes: the chunk past the cap gets 503, the rest is read and dropped', async () => {
    const { receiver: r, port, rejections } = await receiver({ maxHeldBytes: 3000 });
    const streaming = await open(port);
    streaming.socket.write(head('chunked'));
    const chunk = `3e8\r\n${'x'.repeat(1000)}\r\n`;
    for (let i = 0; i < 3; i++) streaming.socket.write(chunk);
    await until(() => r.held() === 3000, 'three chunks to be held');
    expect(streaming.text).toBe('');
    streaming.socket.write(chunk);
    await until(() => streaming.text.endsWith('}'), 'the 503');
    expect(answer(streaming.text)).toEqual(busy('2.9 KiB', '2.9 KiB'));
    expect(r.held()).toBe(0);
    // What it still sends is dropped, and the end of its body brings no second answer.
    const answered = streaming.text;
    streaming.socket.write(`${chunk}${chunk}0\r\n\r\n`);
    expect(await signedPing(port)).toBe(204);
    expect(streaming.text).toBe(answered);
    expect(r.held()).toBe(0);
    expect(rejections).toEqual([
      '503 busy: 2.9 KiB of bodies held, and this one would go past 2.9 KiB; retry after 5 s',
    ]);
  });

  it('a sender that got its 503 and then runs out of time is closed without a second answer (no 408 after it)', async () => {
    const { port, rejections } = await receiver({ maxHeldBytes: 100, requestTimeoutMs: 300 });
    const connection = await open(port);
    connection.socket.write(head(1000));
    await until(() => connection.closed, 'the receiver to close the connection at its time-out');
    expect(answer(connection.text)).toEqual(busy('0 bytes', '100 bytes'));
    expect(rejections).toEqual([
      '503 busy: 0 bytes of bodies held, and this one would go past 100 bytes; retry after 5 s',
    ]);
  });
});

describe('connections open at once', () => {
  it('are capped: past the cap a new one is closed unanswered, and said on stderr; one closing makes room', async () => {
    const { port, drops, events } = await receiver({ maxConnections: 3 });
    const idle = [await open(port), await open(port), await open(port)];
    const fourth = await open(port);
    await until(() => fourth.closed, 'the fourth connection to be closed');
    expect(fourth.text).toBe('');
    expect(drops).toEqual(['127.0.0.1: 3 open already, the most it keeps']);
    // Those open are served: a delivery on one of them is accepted.
    const body = ping();
    idle[1]!.socket.write(`${head(body.length, sign(SECRET, body))}${body}`);
    await until(() => idle[1]!.text.startsWith('HTTP/1.1 204 '), 'the delivery on an open connection');
    // One goes away: once the receiver has seen it close (an instant, which a new connection
    // may beat: it is then closed unanswered too), a new one gets in.
    idle[0]!.socket.destroy();
    let status = 0;
    for (let attempt = 0; attempt < 100 && status === 0; attempt++) status = await signedPing(port);
    expect(status).toBe(204);
    expect(events).toHaveLength(2);
    expect(new Set(drops)).toEqual(new Set(['127.0.0.1: 3 open already, the most it keeps']));
  });
});

describe('webhook listen (the built binary)', () => {
  it(`keeps ${MAX_CONNECTIONS} connections open at most, saying so on stderr for each one closed past it`, async () => {
    const listener = await startListener();
    try {
      const port = Number(new URL(listener.url).port);
      const idle = [];
      for (let i = 0; i < MAX_CONNECTIONS; i++) idle.push(await open(port));
      const past = await open(port);
      await until(() => past.closed, 'the connection past the cap to be closed');
      expect(past.text).toBe('');
      await until(() => listener.out.stderr.includes('dropped'), 'the line on stderr');
      expect(listener.out.stderr.split('\n').filter((line: string) => line.startsWith('dropped'))).toEqual([
        `dropped a connection from 127.0.0.1: ${MAX_CONNECTIONS} open already, the most it keeps`,
      ]);
      for (const connection of idle) connection.socket.destroy();
      let status = 0;
      for (let attempt = 0; attempt < 100 && status === 0; attempt++)
        status = await signedPing(port, FLOOD_SECRET, '/');
      expect(status).toBe(204);
    } finally {
      await listener.stop();
    }
  });
});

describe('webhook listen (the built binary) under 300 held 1 MiB deliveries', () => {
  it(`stays under 256 MiB, answers 503 + Retry-After past ${MAX_HELD_BYTES / 1024 / 1024} MiB held, and accepts a signed ping afterwards`, async () => {
    expect([MAX_HELD_BYTES, MAX_CONNECTIONS, RETRY_AFTER_SECONDS]).toEqual([32 * 1024 * 1024, 256, 5]);
    const listener = await startListener();
    try {
      const outcomes: string[] = await flood(listener.url, { count: 300, bytes: 1024 * 1024 });
      const counts: Record<string, number> = tally(outcomes);
      // Held ones wait for their 408 (they never finish); the rest are turned away at once.
      expect(Object.keys(counts).every((status) => ['408', '503', 'closed'].includes(status))).toBe(true);
      expect(counts['503']).toBeGreaterThan(0);
      expect(counts['408']).toBeGreaterThan(0);
      for (const outcome of outcomes.filter((o) => o.startsWith('HTTP/1.1 503 ')))
        expect(outcome).toContain('\r\nRetry-After: 5\r\n');
      const pinged = await run(['webhook', 'ping', listener.url, '--secret-env', 'S'], { env: { S: FLOOD_SECRET } });
      expect(pinged.code).toBe(0);
      expect(pinged.stdout).toMatch(/^status\tstatusText\tlocation\tms\n204\tNo Content\t\t\d+\n$/);
      await until(() => listener.out.stdout.includes('\n'), 'the ping on stdout');
      expect(JSON.parse(listener.out.stdout)).toMatchObject({ type: 'ping' });
      const peak: number = listener.peakMiB();
      expect(peak).toBeLessThan(256);
      const lines = listener.out.stderr.split('\n');
      expect(lines).toContain(
        'rejected 503 from 127.0.0.1: busy: 32 MiB of bodies held, and this one would go past 32 MiB; retry after 5 s',
      );
      expect(lines).toContain('rejected 408 from 127.0.0.1: the client was too slow');
    } finally {
      await listener.stop();
    }
  }, 60_000);
});
