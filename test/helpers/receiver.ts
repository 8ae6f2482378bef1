// The webhook receiver (src/webhook/receiver.ts) on a free loopback port at /hooks, recording
// what it accepted, refused and dropped, for the tests that send it deliveries.
import { startReceiver, type Receiver, type ReceiverOptions } from '../../src/webhook/receiver.js';

export interface TestReceiver {
  receiver: Receiver;
  url: string;
  port: number;
  /** Each accepted event's body. */
  events: unknown[];
  /** `STATUS message` of each refusal. */
  rejections: string[];
  /** `FROM: why` of each connection dropped unanswered. */
  drops: string[];
}

export async function startTestReceiver(secret: string, options: Partial<ReceiverOptions> = {}): Promise<TestReceiver> {
  const events: unknown[] = [];
  const rejections: string[] = [];
  const drops: string[] = [];
  const receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    path: '/hooks',
    secret,
    toleranceSeconds: 300,
    now: Date.now,
    onEvent: (event, recorded) => {
      events.push(event.body);
      recorded();
    },
    onReject: (status, message) => rejections.push(`${status} ${message}`),
    onDrop: (from, why) => drops.push(`${from}: ${why}`),
    ...options,
  });
  return { receiver, url: receiver.url, port: Number(new URL(receiver.url).port), events, rejections, drops };
}
