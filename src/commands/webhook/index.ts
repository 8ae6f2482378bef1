// `cdata webhook listen|ping|check` (verify has its own file, verify.ts). Exit codes of this
// family: 0 valid or accepted, 1 rejected or not accepted (a verdict about a delivery or a
// receiver, not a bug), 2 usage, 6 when the receiver could not be reached at all.
import { redactKeys } from '../../config/key.js';
import { errorCode, errorMessage, EXIT, UnavailableError, UsageError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json-value.js';
import { sanitize } from '../../core/sanitize.js';
import type { Handler } from '../../command-kit/command.js';
import { terminalSpinner } from '../shared/api.js';
import { runChecks } from '../../webhook/check.js';
import { deliver, DELIVERY_TIMEOUT_MS, eventBody, receiverUrl, signed } from '../../webhook/deliver.js';
import { startReceiver } from '../../webhook/receiver.js';
import { readSecret } from '../../webhook/secret.js';
import { CHECK_RESULTS, PING_ANSWER } from '../../command-kit/local-views.js';
import type { LISTEN_OPTIONS, SECRET_OPTIONS, URL_ARGS } from './command.js';
import { eventLine, REJECTED } from './verdict.js';

export const listen: Handler<typeof LISTEN_OPTIONS> = async (context) => {
  const { io, options } = context;
  const { path, host, port, tolerance: toleranceSeconds } = options;
  const secret = await readSecret(io, options, true, context.warn);

  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  try {
    receiver = await startReceiver({
      host,
      port,
      path,
      secret,
      toleranceSeconds,
      now: io.now,
      onEvent: (event, recorded) => io.stdout.write(eventLine(event.body, secret), recorded),
      canRecord: () => io.stdout.writableNeedDrain !== true,
      onReject: (status, message, from) =>
        io.stderr.write(`rejected ${status} from ${sanitize(from)}: ${sanitize(redactKeys(message, [secret]))}\n`),
      onDrop: (from, why) =>
        io.stderr.write(`dropped a connection${from === undefined ? '' : ` from ${sanitize(from)}`}: ${why}\n`),
    });
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on ${host} is already in use: choose another with --port`);
    throw new UsageError(`cannot listen on ${host}:${port} (${code ?? errorMessage(error)})`, { cause: error });
  }
  context.note(`listening for deliveries on ${receiver.url} (Ctrl-C stops)`);
  await new Promise<void>((resolve) => io.onInterrupt(resolve));
  await receiver.close();
  return EXIT.ok;
};

export const ping: Handler<typeof SECRET_OPTIONS, typeof URL_ARGS> = async (context) => {
  const { io } = context;
  const url = receiverUrl(context.args[0]);
  const output = context.output(PING_ANSWER);
  const secret = await readSecret(io, context.options, true, context.warn);
  const { body, signature } = signed(secret, eventBody('ping', io.now()));
  const transport = await context.transport({ connectTimeoutMs: DELIVERY_TIMEOUT_MS });
  // At a terminal, a spinner while an answer is awaited (up to 5 s each), as for the API's answers.
  const waits = await terminalSpinner(io, context.global.quiet)?.();
  const result = await deliver(io, transport, url, body, signature, waits).finally(() => transport.close());
  // The receiver chose the Location; one that knows the secret could echo it there.
  if (result.location !== undefined) result.location = redactKeys(result.location, [secret]);
  if (result.status === undefined) {
    if (!result.timedOut) throw unreachableError(url, result.failure, result.hint);
    io.stderr.write(
      `no answer from ${url.host} within ${DELIVERY_TIMEOUT_MS / 1000} s, the time the platform gives a receiver\n`,
    );
    // For a script, the answer that did not come, as one that did: status null, the time waited.
    if (output.format !== 'table' || context.global.fields !== undefined)
      await output.print({ status: null, statusText: null, location: null, ms: result.ms });
    return REJECTED;
  }
  const answer: JsonObject = {
    status: result.status,
    statusText: result.statusText,
    location: result.location ?? null,
    ms: result.ms,
  };
  if (output.format === 'table' && context.global.fields === undefined) {
    // At a terminal, one sentence says it all.
    const redirect = result.location
      ? `: redirected to ${sanitize(result.location)} (not followed, as the platform does not follow it)`
      : '';
    io.stdout.write(`${result.status} ${result.statusText} in ${result.ms} ms${redirect}\n`);
  } else {
    await output.print(answer);
  }
  return result.status >= 200 && result.status < 300 ? EXIT.ok : REJECTED;
};

export const check: Handler<typeof SECRET_OPTIONS, typeof URL_ARGS> = async (context) => {
  const { io } = context;
  const url = receiverUrl(context.args[0]);
  const output = context.output(CHECK_RESULTS);
  const secret = await readSecret(io, context.options, true, context.warn);
  const transport = await context.transport({ connectTimeoutMs: DELIVERY_TIMEOUT_MS });
  const waits = await terminalSpinner(io, context.global.quiet)?.();
  const results = await runChecks(io, transport, url, secret, waits).finally(() => transport.close());
  // A table shows PASS/FAIL under `pass`; the other formats carry `pass` as a boolean.
  const table = output.format === 'table';
  const rows: JsonObject[] = results.map(({ unreachable: _, hint: __, pass, ...rest }) => ({
    ...rest,
    pass: table ? (pass ? 'PASS' : 'FAIL') : pass,
  }));
  await output.print(rows);
  const failed = results.filter((r) => !r.pass);
  if (failed.length === 0) {
    context.note(`all ${results.length} checks passed`);
    return EXIT.ok;
  }
  if (results.every((r) => r.unreachable)) throw unreachableError(url, results[0]!.got, results[0]!.hint);
  context.note(`${failed.length} of ${results.length} checks failed`);
  return REJECTED;
};

/** No answer possible from the receiver at `url` (exit 6): why, and where to look. */
function unreachableError(url: URL, why: string | undefined, hint?: string): UnavailableError {
  return new UnavailableError(`cannot reach ${url.host}: ${sanitize(why ?? '')}`, {
    hint:
      hint ??
      'Check the receiver URL (host and port), that the receiver is running there, and any proxy (HTTPS_PROXY, NO_PROXY).',
  });
}
