// Where the signing secret comes from: an environment variable, a file, or stdin; never argv,
// where shell history and process lists would keep it. It is used exactly as given, except that
// one trailing line break is dropped from a file or stdin (`echo "$SECRET" > file` adds one, and
// the platform's secrets never end with one). Any characters work (the HMAC key is the secret's
// UTF-8), but bytes that are not UTF-8 are refused: decoded, they would become U+FFFD and sign
// with a different key than the one in the file.
import { errorMessage, UsageError } from '../core/errors.js';
import { readStdin, type Io } from '../io/index.js';
import { describeBytes, readRegularFile } from '../io/read-file.js';

const MAX_SECRET_BYTES = 4096;

/** Where the command was told to find it: --secret-env VAR, --secret-file FILE (--secret is refused before this). */
export interface SecretOptions {
  secretEnv: string | undefined;
  secretFile: string | undefined;
}

/**
 * The secret, from --secret-env, --secret-file, or stdin when `stdinFree` (it does not carry
 * the body) and is not a terminal. `warn` is told when the secret does not look like one.
 */
export async function readSecret(
  io: Io,
  options: SecretOptions,
  stdinFree: boolean,
  warn: (message: string) => void,
): Promise<string> {
  // Both at once is refused as the options are parsed (their `conflicts`).
  const { secretEnv, secretFile } = options;
  refuseSecretAsName(options);
  let secret: string;
  if (secretEnv !== undefined) {
    const value = io.env[secretEnv];
    if (value === undefined || value === '')
      throw new UsageError(`the environment variable ${secretEnv} (--secret-env) is not set or empty`);
    secret = value;
  } else if (secretFile !== undefined) {
    let bytes: Buffer;
    try {
      ({ bytes } = readRegularFile(secretFile, MAX_SECRET_BYTES));
    } catch (error) {
      throw new UsageError(`cannot read the secret file ${secretFile}: ${errorMessage(error)}`, {
        cause: error,
        hint: `A secret file is a regular file of at most ${describeBytes(MAX_SECRET_BYTES)}.${stdinFree ? ' To pass it through a pipe, pipe it on stdin instead.' : ''}`,
      });
    }
    secret = dropOneLineBreak(utf8(bytes, `the secret file ${secretFile}`));
  } else if (stdinFree && !io.stdin.isTTY) {
    const bytes = await readStdin(io.stdin, MAX_SECRET_BYTES);
    if (!bytes) throw new UsageError(`more than ${MAX_SECRET_BYTES} bytes on stdin: that is not a signing secret`);
    secret = dropOneLineBreak(utf8(bytes, 'the secret on stdin'));
  } else {
    throw new UsageError(
      'no signing secret: give it with --secret-env VAR or --secret-file FILE' +
        (stdinFree ? ', or pipe it on stdin' : ''),
      {
        hint: 'The secret never goes on the command line, where shell history and process lists keep it.',
      },
    );
  }
  if (secret === '')
    throw new UsageError(
      secretEnv === undefined && secretFile === undefined
        ? 'no signing secret: stdin was empty (give it with --secret-env VAR or --secret-file FILE, or pipe it on stdin)'
        : 'the signing secret is empty',
    );
  if (!secret.startsWith('whsec_'))
    warn("the signing secret does not start with 'whsec_': is it the one the Developers page showed?");
  // Used exactly as given all the same: only the user knows whether these belong.
  if (INVISIBLE.test(secret))
    warn(
      'the signing secret holds spaces, control or invisible characters (a byte order mark, a zero-width space): a slip of the copy and paste?',
    );
  return secret;
}

/**
 * The secret itself given where its variable's name or its file's path goes (`--secret-env
 * "$WEBHOOK_SECRET"`): refused without echoing it, as `--secret=` is. So is anything that cannot
 * be a variable's name, since it may be a secret of another form.
 */
function refuseSecretAsName({ secretEnv, secretFile }: SecretOptions): void {
  const hint =
    'Keep the secret in a variable and name it: export WEBHOOK_SECRET=...; cdata webhook ... --secret-env WEBHOOK_SECRET. The secret never goes on the command line.';
  if (secretEnv !== undefined && (secretEnv.startsWith('whsec_') || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(secretEnv)))
    throw new UsageError(
      `--secret-env takes the name of an environment variable (letters, digits and _), and what it was given is ${secretEnv.startsWith('whsec_') ? 'a signing secret itself' : 'not one'} (not echoed: it may be the secret)`,
      { hint },
    );
  if (secretFile?.startsWith('whsec_'))
    throw new UsageError(
      '--secret-file takes the path of a file that holds the secret, and what it was given is a signing secret itself (not echoed)',
      { hint },
    );
}

/** Whitespace, C0/C1 controls, and the invisible format characters a paste can carry. */
const INVISIBLE = /[\s\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/u;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as UTF-8 text, or a usage error: replaced by U+FFFD, they would sign with another key. */
function utf8(bytes: Buffer, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new UsageError(
      `${what} is not UTF-8 text: the signing secret is used as UTF-8, and these bytes have no UTF-8 reading`,
    );
  }
}

function dropOneLineBreak(text: string): string {
  return text.replace(/\r?\n$/, '');
}
