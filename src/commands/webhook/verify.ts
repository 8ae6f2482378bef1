// `cdata webhook verify`: one delivery checked as a receiver would. A module of its own, so that
// a script that runs it for each delivery loads no HTTP client or server (index.ts holds those).
import { redactKeys } from '../../config/key.js';
import { EXIT, errorMessage, hintOf, UsageError } from '../../core/errors.js';
import { sanitize } from '../../core/sanitize.js';
import { readStdin } from '../../io/index.js';
import { FileTooLarge, NotARegularFile, readRegularFile } from '../../io/read-file.js';
import type { Handler } from '../../command-kit/command.js';
import { readSecret } from '../../webhook/secret.js';
import { MAX_BODY_BYTES, verify as verifyDelivery } from '../../webhook/signature.js';
import type { VERIFY_OPTIONS } from './command.js';
import { eventLine, REJECTED } from './verdict.js';

export const verify: Handler<typeof VERIFY_OPTIONS> = async (context) => {
  const { io, options } = context;
  const { signature, bodyFile, tolerance: toleranceSeconds } = options;
  if (bodyFile === undefined && io.stdin.isTTY)
    throw new UsageError('no body: pipe the raw body on stdin, or give --body-file FILE');
  const secret = await readSecret(io, options, bodyFile !== undefined, context.warn);
  const body = bodyFile === undefined ? await readStdin(io.stdin, MAX_BODY_BYTES) : readBodyFile(bodyFile);
  // Wherever it comes from, a body over the receiver's limit is a verdict, as \`listen\` answers 413.
  if (!body) {
    io.stderr.write(
      'rejected: too-large: the body is larger than 1 MiB, more than any delivery (a receiver answers 413)\n',
    );
    return REJECTED;
  }

  const verdict = verifyDelivery(secret, body, signature, { now: io.now(), toleranceSeconds });
  if (!verdict.ok) {
    io.stderr.write(`rejected: ${verdict.rejection.reason}: ${sanitize(verdict.rejection.message)}\n`);
    return REJECTED;
  }
  io.stdout.write(eventLine(verdict.event.body, secret));
  context.note(redactKeys(`valid: ${verdict.event.type} event, timestamp ${verdict.event.timestamp}`, [secret]));
  return EXIT.ok;
};

/** The body file's bytes; undefined when it is larger than any delivery (a verdict, not a usage error). */
function readBodyFile(path: string): Buffer | undefined {
  try {
    return readRegularFile(path, MAX_BODY_BYTES).bytes;
  } catch (error) {
    if (error instanceof FileTooLarge) return undefined;
    // A pipe, a device or a folder given as the file: what to do instead. A missing file: its path.
    throw new UsageError(`cannot read the body file ${path}: ${errorMessage(error)}`, {
      cause: error,
      ...hintOf(
        error instanceof NotARegularFile
          ? 'A body file is a regular file; to verify a body that comes through a pipe, pipe it on stdin (without --body-file).'
          : undefined,
      ),
    });
  }
}
