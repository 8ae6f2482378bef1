// Where the signing secret comes from: an environment variable, a file, or stdin; never argv,
// where shell history and process lists would keep it. It is used exactly as given, except that
// one trailing line break is dropped from a file or stdin (`echo "$SECRET" > file` adds one, and
// the platform's secrets never end with one).
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { readStdin, type Io } from '../io.js';

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
export async function readSecret(io: Io, options: SecretOptions, stdinFree: boolean, warn: (message: string) => void): Promise<string> {
  const { secretEnv, secretFile } = options;
  if (secretEnv !== undefined && secretFile !== undefined) throw new UsageError('use one of --secret-env and --secret-file, not both');
  let secret: string;
  if (secretEnv !== undefined) {
    const value = io.env[secretEnv];
    if (value === undefined || value === '') throw new UsageError(`the environment variable ${secretEnv} (--secret-env) is not set or empty`);
    secret = value;
  } else if (secretFile !== undefined) {
    try {
      secret = dropOneLineBreak(readFileSync(secretFile, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read the secret file ${secretFile}: ${(error as Error).message}`, { cause: error });
    }
  } else if (stdinFree && !io.stdin.isTTY) {
    const bytes = await readStdin(io.stdin, MAX_SECRET_BYTES);
    if (!bytes) throw new UsageError(`more than ${MAX_SECRET_BYTES} bytes on stdin: that is not a signing secret`);
    secret = dropOneLineBreak(bytes.toString('utf8'));
  } else {
    throw new UsageError('no signing secret: give it with --secret-env VAR or --secret-file FILE' + (stdinFree ? ', or pipe it on stdin' : ''), {
      hint: 'The secret never goes on the command line, where shell history and process lists keep it.',
    });
  }
  if (secret === '') throw new UsageError('the signing secret is empty');
  if (!secret.startsWith('whsec_')) warn("the signing secret does not start with 'whsec_': is it the one the Developers page showed?");
  return secret;
}

function dropOneLineBreak(text: string): string {
  return text.replace(/\r?\n$/, '');
}
