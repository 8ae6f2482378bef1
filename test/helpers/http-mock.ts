// Answers cdata's requests in-process, in the spirit of gh's httpmock: a test registers the
// answers it expects to give, runs `main` with the mock's transport (main's seam), then reads
// which requests came. No socket: for handler tests whose point is what cdata does with an
// answer. End-to-end tests keep talking HTTP to the sandbox.
import type { HttpAnswer } from '../../src/client/problem.js';
import type { OutgoingRequest, Transport, TransportFactory, TransportOptions } from '../../src/client/transport.js';
import { main } from '../../src/cli.js';
import { tempConfigDir, type RunResult } from './run.js';
import { testIo, type TestIoOptions } from './io.js';
import { rmSync } from 'node:fs';

type Answer = HttpAnswer | ((request: OutgoingRequest) => HttpAnswer | Promise<HttpAnswer>);

interface Stub {
  method: string;
  path: string;
  answers: Answer[];
}

/** A JSON answer, as the API sends one. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** A problem+json answer with every field, as the API sends errors. */
export function problem(
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): HttpAnswer {
  const body = { type: 'about:blank', title, status, detail, instance: '/x', correlationId: 'corr-1' };
  return {
    status,
    headers: { 'content-type': 'application/problem+json', 'x-correlation-id': 'corr-1', ...headers },
    body: JSON.stringify(body),
  };
}

export class HttpMock {
  private readonly stubs: Stub[] = [];
  /** Every request that came, in order. */
  readonly requests: OutgoingRequest[] = [];
  /** Transports made and closed: a command must close what it opens. */
  opened = 0;
  closed = 0;
  /** What each transport was made with, in order (how long a connection may take, how many). */
  readonly made: TransportOptions[] = [];

  /** The answers to `method path` (the path without its query), one per request, in order. */
  on(method: string, path: string, ...answers: Answer[]): this {
    this.stubs.push({ method, path, answers });
    return this;
  }

  readonly transport: TransportFactory = (_env, options): Transport => {
    this.opened++;
    this.made.push(options);
    return {
      send: async (request) => {
        this.requests.push(request);
        const { pathname } = new URL(request.url);
        const stub = this.stubs.find((s) => s.method === request.method && s.path === pathname && s.answers.length > 0);
        if (!stub) throw new Error(`http-mock: no answer registered for ${request.method} ${pathname}`);
        const answer = stub.answers.shift()!;
        return typeof answer === 'function' ? answer(request) : answer;
      },
      close: async () => void this.closed++,
    };
  };

  /** The answers registered but never asked for: a test expects none left. */
  unused(): string[] {
    return this.stubs.flatMap((s) => s.answers.map(() => `${s.method} ${s.path}`));
  }
}

/** `main` with the mock's transport, a base URL and key in the env, and a config folder of its own. */
export async function runMocked(mock: HttpMock, argv: string[], options: TestIoOptions = {}): Promise<RunResult> {
  const config = tempConfigDir();
  try {
    const env = {
      CDATA_CONFIG_DIR: config,
      CDATA_BASE_URL: 'https://api.example.test',
      CDATA_API_KEY: 'svc_mockedkey0123456789',
      ...options.env,
    };
    const io = testIo({ ...options, env });
    const code = await main(argv, io.io, { transport: mock.transport });
    return { code, stdout: io.stdout(), stderr: io.stderr(), sleeps: io.sleeps };
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
}
