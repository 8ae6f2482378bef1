// `cdata auth login`: a key from stdin or a hidden prompt, checked for shape, then against
// /api/v1/me, and only then stored in the profile with the base URL it was checked against.
// With --key-command, the command runs once for the key, checked the same way, and the command
// is what is stored: a profile holds a key or a key command, never both.
import { checkWritable, profileIn, updateConfig } from '../../config/store.js';
import { keyProblem, redactKeys } from '../../config/key.js';
import { loginCommand } from '../../config/resolve.js';
import { warningForNewFile } from '../../config/read.js';
import { DEFAULT_PROFILE } from '../../config/schema.js';
import { CliError, UsageError } from '../../core/errors.js';
import { requireBaseUrl } from '../shared/api.js';
import { fetchIdentity } from '../shared/identity.js';
import { readKey } from './read-key.js';
import type { Handler } from '../../command-kit/command.js';
import type { ApiContext } from '../shared/api.js';
import type { LOGIN_ARGS, LOGIN_OPTIONS } from './command.js';

/** What a shell reports for a command ended by Ctrl-C (128 + SIGINT), as the rest of cdata exits. */
const CANCELLED = 130;

export const login: Handler<typeof LOGIN_OPTIONS, typeof LOGIN_ARGS> = async (context) => {
  const { io } = context;
  const settings = context.settings();
  const profile = settings.profile.name;
  // Everything but the key is checked first: nobody should paste a key only to hear that the
  // base URL is missing or the config file cannot be written.
  const baseUrl = requireBaseUrl(context);
  checkWritable(io.env);

  const { keyCommand } = context.options;
  const key =
    keyCommand === undefined
      ? await enteredKey(context)
      : await nothingStoredUnless(
          (await import('../../config/key-command.js')).runKeyCommand({
            command: keyCommand,
            io,
            debug: settings.debug,
          }),
        );
  if (key === undefined) {
    io.stderr.write('Login cancelled; nothing stored.\n');
    return CANCELLED;
  }

  const identity = await nothingStoredUnless(fetchIdentity(context, key), key);
  const madeDefault = await updateConfig(io, (data) => {
    const stored = profileIn(data, profile);
    if (keyCommand === undefined) {
      stored.key = key;
      delete stored.keyCommand;
    } else {
      stored.keyCommand = keyCommand;
      delete stored.key;
    }
    stored.baseUrl = baseUrl;
    // A default already: the one marked, else another profile named `default` that can be used
    // (a key or a key command: `config set` without -p makes one that holds settings alone).
    if (data.defaultProfile !== undefined) return false;
    const fallback = Object.hasOwn(data.profiles, DEFAULT_PROFILE) ? data.profiles[DEFAULT_PROFILE] : undefined;
    if (profile !== DEFAULT_PROFILE && (fallback?.key !== undefined || fallback?.keyCommand !== undefined))
      return false;
    data.defaultProfile = profile;
    return true;
  });

  const what = keyCommand === undefined ? 'Key' : 'Key command';
  if (identity) {
    context.note(`Logged in to ${text(identity.tenant)} as ${text(identity.displayName)} (profile ${profile}).`);
  } else {
    context.note(
      `${what} stored (profile ${profile}). Its identity cannot be shown: the key lacks workspaces.read, which /api/v1/me needs.`,
    );
  }
  if (keyCommand !== undefined)
    context.note('The command is stored, not the key: it runs whenever a command needs the key.');
  if (madeDefault && profile !== DEFAULT_PROFILE)
    context.note(`Profile '${profile}' is now the default (no other was).`);
  if (settings.key.source === 'env')
    context.warn(`CDATA_API_KEY is set, and it wins over the stored ${what.toLowerCase()} until you unset it.`);
  const exposed = warningForNewFile(settings.config, io.env);
  if (exposed) context.warn(exposed);
};

/** The key typed or piped, trimmed and checked for shape; undefined when the prompt was cancelled. */
async function enteredKey(context: ApiContext): Promise<string | undefined> {
  const entered = await readKey(
    context.io,
    `API key for profile '${context.settings().profile.name}' (input hidden): `,
  );
  if (entered === undefined) return undefined;
  const key = entered.trim();
  const problem = keyProblem(key);
  if (problem) {
    throw new UsageError(`${problem}; nothing stored`, {
      hint: `Copy the whole key from the platform's Developers page (it starts with svc_), then: echo "$KEY" | ${loginCommand(context.settings())}`,
    });
  }
  return key;
}

/** What `step` gives; its error says nothing was stored, and never holds the new key. */
async function nothingStoredUnless<T>(step: Promise<T>, key?: string): Promise<T> {
  try {
    return await step;
  } catch (error) {
    if (error instanceof CliError) {
      // The new key is not among the secrets cli.ts redacts (it is not the resolved one yet).
      error.message = `${redactKeys(error.message, key === undefined ? [] : [key]).replace(/\.$/, '')}; nothing stored`;
    }
    throw error;
  }
}

function text(value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : '(unknown)';
}
