// A sandbox on 127.0.0.1, port 0, for a test file; and the env that points cdata at it.
import { afterAll, beforeAll } from 'vitest';
import { demoKey, type DemoKey } from '../../src/sandbox/keys.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { tempConfigDir } from './run.js';

/** Starts a sandbox before the file's tests and stops it after; read `.current` inside tests. */
export function useSandbox(options: SandboxOptions = {}): { current: Sandbox } {
  const holder = {} as { current: Sandbox };
  beforeAll(async () => {
    holder.current = await startSandbox(options);
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  return holder;
}

/** Env for cdata: the sandbox's URL, a demo key, and an empty config folder. */
export function sandboxEnv(sandbox: Sandbox, key: DemoKey['id'] = 'all'): Record<string, string> {
  return { CDATA_BASE_URL: sandbox.url, CDATA_API_KEY: demoKey(key), CDATA_CONFIG_DIR: tempConfigDir() };
}
