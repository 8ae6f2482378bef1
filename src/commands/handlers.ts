// Each command that runs, by its path, and where its handler is: loaded only when the command
// runs. The declarations (each folder's command.ts) are data, which help, completions and the
// docs read without loading a handler; a handler types itself from its own declaration, so no
// import goes from a declaration to its handler and none goes back in a circle.
// test/registry.test.ts checks that every command that runs has a handler here, and no more.
import type { AnyHandler } from '../command-kit/command.js';
import { ENDPOINTS } from '../core/endpoints.js';

type Load = () => Promise<AnyHandler>;

export const HANDLERS: Readonly<Record<string, Load>> = {
  ...Object.fromEntries(
    ENDPOINTS.map((endpoint): [string, Load] => [
      endpoint.name,
      async () => (await import('./resource/index.js')).resource(endpoint),
    ]),
  ),
  export: async () => (await import('./export/index.js')).exportLists,
  changes: async () => (await import('./changes/index.js')).changes,
  'auth login': async () => (await import('./auth/login.js')).login,
  'auth status': async () => (await import('./auth/index.js')).status,
  'auth logout': async () => (await import('./auth/index.js')).logout,
  'profile list': async () => (await import('./profile/index.js')).list,
  'profile use': async () => (await import('./profile/index.js')).use,
  'profile remove': async () => (await import('./profile/index.js')).remove,
  'config list': async () => (await import('./config/index.js')).list,
  'config get': async () => (await import('./config/index.js')).get,
  'config set': async () => (await import('./config/index.js')).set,
  'config unset': async () => (await import('./config/index.js')).unset,
  'config path': async () => (await import('./config/index.js')).path,
  'webhook verify': async () => (await import('./webhook/verify.js')).verify,
  'webhook listen': async () => (await import('./webhook/index.js')).listen,
  'webhook ping': async () => (await import('./webhook/index.js')).ping,
  'webhook check': async () => (await import('./webhook/index.js')).check,
  sandbox: async () => (await import('./sandbox/index.js')).sandbox,
  completion: async () => (await import('./completion/index.js')).completion,
  help: async () => (await import('./help/index.js')).help,
  version: async () => (await import('./help/index.js')).version,
};

/** The handler of the command at `path` (names, not aliases), undefined for a group. */
export function handlerOf(path: readonly string[]): Load | undefined {
  return Object.hasOwn(HANDLERS, path.join(' ')) ? HANDLERS[path.join(' ')] : undefined;
}
