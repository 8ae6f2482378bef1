// Runs cdata in-process (as test/helpers/run.ts does) and checks, on every run, that no full key
// reaches stdout or stderr: the demo keys, any key a test registers, and whatever was piped in.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { DEMO_KEYS, demoKey } from '../../src/sandbox/keys.js';
import { TENANT } from '../../src/sandbox/vocabulary.js';
import type { TestIoOptions } from '../helpers/io.js';
import { run, tempConfigDir, type RunResult } from '../helpers/run.js';
import { secretTools, type SecretTools, type ToolName } from './secret-tools.js';

/** What auth status prints of the all-scopes demo key's identity, after the local part. */
export const ALL_SCOPES_IDENTITY = [
  `tenant       ${TENANT}`,
  'key name     Sandbox: all scopes',
  'roles        API',
  'scopes       graph.read, tenders.read, workspaces.read',
];

const SECRETS = new Set(DEMO_KEYS.map((key) => demoKey(key.id)));

/** A key the tests use that is not a demo key, watched for in every output from now on. */
export function secret(key: string): string {
  SECRETS.add(key);
  return key;
}

export function expectNoKey(result: { stdout: string; stderr: string }, extra: readonly string[] = []): void {
  for (const key of [...SECRETS, ...extra]) {
    expect(result.stdout, 'a full key on stdout').not.toContain(key);
    expect(result.stderr, 'a full key on stderr').not.toContain(key);
  }
}

export async function cdata(argv: string[], options: TestIoOptions = {}): Promise<RunResult> {
  const result = await run(argv, options);
  const piped = options.stdin?.trim();
  expectNoKey(result, piped && piped.length >= 8 ? [piped] : []);
  return result;
}

/** A config folder for a sequence of commands, and ways to look at its file. */
export function configHome(): {
  env: { CDATA_CONFIG_DIR: string };
  dir: string;
  file: string;
  read(): Record<string, unknown>;
  text(): string;
} {
  const dir = tempConfigDir();
  const file = join(dir, 'config.json');
  return {
    env: { CDATA_CONFIG_DIR: dir },
    dir,
    file,
    text: () => readFileSync(file, 'utf8'),
    read: () => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>,
  };
}

/** A config whose default profile, `prod` at `baseUrl`, gets its key from the named tool. */
export function profileWith(
  tool: ToolName,
  baseUrl: string,
): { tools: SecretTools; env: { CDATA_CONFIG_DIR: string } } {
  const home = configHome();
  const tools = secretTools();
  writeFileSync(
    home.file,
    JSON.stringify({ profiles: { prod: { keyCommand: tools.command(tool), baseUrl } }, defaultProfile: 'prod' }),
    { mode: 0o600 },
  );
  return { tools, env: home.env };
}
