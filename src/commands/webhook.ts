// `cdata webhook verify|listen|ping|check`. Exit codes of this family: 0 valid or accepted,
// 1 rejected or not accepted (a verdict about a delivery or a receiver, not a bug), 2 usage,
// 6 when the receiver could not be reached at all.
import { readFileSync } from 'node:fs';
import { Chalk } from 'chalk';
import { EXIT, UsageError, UnavailableError } from '../errors.js';
import { readStdin } from '../io.js';
import { colorLevel } from '../output/color.js';
import { sanitize } from '../output/sanitize.js';
import { runChecks } from '../webhook/check.js';
import { deliver, eventBody, receiverUrl, signed } from '../webhook/deliver.js';
import { MAX_BODY_BYTES, startReceiver } from '../webhook/receiver.js';
import { readSecret } from '../webhook/secret.js';
import { DEFAULT_TOLERANCE_SECONDS, verify as verifyDelivery } from '../webhook/signature.js';
import { parseInteger } from './flags.js';
import type { CommandContext, Handler } from './spec.js';

const REJECTED = 1;

export const verify: Handler = async (context) => {
  const { io, options } = context;
  if (typeof options.signature !== 'string') {
    throw new UsageError('--signature HEX is required: the value of the X-Service-Signature header');
  }
  const toleranceSeconds = tolerance(options.tolerance);
  const bodyFile = typeof options.bodyFile === 'string' ? options.bodyFile : undefined;
  if (bodyFile === undefined && io.stdin.isTTY) throw new UsageError('no body: pipe the raw body on stdin, or give --body-file FILE');
  const secret = await readSecret(io, options, bodyFile !== undefined, context.warn);
  const body = bodyFile === undefined ? await readStdin(io.stdin, MAX_BODY_BYTES) : readBodyFile(bodyFile);
  if (!body) throw new UsageError('the body is larger than 1 MiB: not a delivery');

  const verdict = verifyDelivery(secret, body, options.signature, { now: io.now(), toleranceSeconds });
  if (!verdict.ok) {
    io.stderr.write(`rejected: ${verdict.rejection.reason}: ${sanitize(verdict.rejection.message)}\n`);
    return REJECTED;
  }
  io.stdout.write(`${JSON.stringify(verdict.event.body)}\n`);
  context.note(`valid: ${verdict.event.type} event, timestamp ${verdict.event.timestamp}`);
  return EXIT.ok;
};

export const listen: Handler = async (context) => {
  const { io, options } = context;
  const path = typeof options.path === 'string' ? options.path : '/';
  if (!path.startsWith('/')) throw new UsageError(`--path must start with / (got '${sanitize(path)}')`);
  const host = typeof options.host === 'string' ? options.host : '127.0.0.1';
  const port = parseInteger('--port', options.port ?? '8787', 0, 65535);
  const toleranceSeconds = tolerance(options.tolerance);
  const secret = await readSecret(io, options, true, context.warn);

  let receiver;
  try {
    receiver = await startReceiver({
      host,
      port,
      path,
      secret,
      toleranceSeconds,
      now: io.now,
      onEvent: (event) => io.stdout.write(`${JSON.stringify(event.body)}\n`),
      onReject: (status, message, from) => io.stderr.write(`rejected ${status} from ${sanitize(from)}: ${sanitize(message)}\n`),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} on ${host} is already in use: choose another with --port`);
    throw new UsageError(`cannot listen on ${host}:${port} (${code ?? (error as Error).message})`, { cause: error });
  }
  context.note(`listening for deliveries on ${receiver.url} (Ctrl-C stops)`);
  await new Promise<void>((resolve) => io.onInterrupt(resolve));
  await receiver.close();
  return EXIT.ok;
};

export const ping: Handler = async (context) => {
  const { io } = context;
  const url = receiverUrl(String(context.args[0]));
  const secret = await readSecret(io, context.options, true, context.warn);
  const { body, signature } = signed(secret, eventBody('ping', io.now()));
  const result = await deliver(io, url, body, signature);
  if (result.status === undefined) {
    if (!result.timedOut) throw new UnavailableError(`cannot reach ${url.host}: ${sanitize(result.failure ?? '')}`);
    io.stderr.write(`no answer from ${url.host} ${result.failure ?? ''} (the platform gives a receiver 5 s)\n`);
    return REJECTED;
  }
  if (wantsJson(context)) {
    io.stdout.write(`${JSON.stringify({ status: result.status, statusText: result.statusText, location: result.location ?? null, ms: result.ms })}\n`);
  } else {
    const redirect = result.location ? `: redirected to ${sanitize(result.location)} (not followed, as the platform does not follow it)` : '';
    io.stdout.write(`${result.status} ${result.statusText} in ${result.ms} ms${redirect}\n`);
  }
  return result.status >= 200 && result.status < 300 ? EXIT.ok : REJECTED;
};

export const check: Handler = async (context) => {
  const { io } = context;
  const url = receiverUrl(String(context.args[0]));
  const secret = await readSecret(io, context.options, true, context.warn);
  const results = await runChecks(io, url, secret);
  if (wantsJson(context)) {
    io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    const paint = new Chalk({ level: colorLevel(io.stdout, context.settings().color, io.env) });
    const rows = [['case', 'expected', 'got', 'time', 'result'], ...results.map((r) => [r.case, r.expected, sanitize(r.got), `${r.ms} ms`, r.pass ? 'PASS' : 'FAIL'])];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    rows.forEach((row, index) => {
      const line = row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ');
      const last = row[row.length - 1]!;
      const tone = index === 0 ? paint.bold : last === 'PASS' ? paint.green : paint.red;
      io.stdout.write(`${index === 0 ? tone(line) : line.slice(0, -last.length) + tone(last)}\n`);
    });
  }
  const failed = results.filter((r) => !r.pass);
  if (failed.length === 0) {
    context.note(`all ${results.length} checks passed`);
    return EXIT.ok;
  }
  if (results.every((r) => r.unreachable)) throw new UnavailableError(`cannot reach ${url.host}: ${sanitize(results[0]!.got)}`);
  context.note(`${failed.length} of ${results.length} checks failed`);
  return REJECTED;
};

function tolerance(raw: unknown): number {
  return raw === undefined ? DEFAULT_TOLERANCE_SECONDS : parseInteger('--tolerance', raw, 0, 86_400);
}

function readBodyFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read the body file ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function wantsJson(context: CommandContext): boolean {
  const output = context.settings().output.value;
  return output === 'json' || output === 'ndjson';
}
