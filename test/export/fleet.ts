// Many profiles against one sandbox, for the tests of `export --profiles`: a config folder whose
// profiles each point at the sandbox with a demo key, and a sandbox that counts what reaches it
// (requests in flight at once, refusals).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../src/export/profiles/run-record.js';
import { demoKey, type DemoKey } from '../../src/sandbox/keys.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import type { ProfileData } from '../../src/config/schema.js';

/** `client-001` .. `client-NNN`. */
export const clientName = (i: number) => `client-${String(i).padStart(3, '0')}`;

/** Writes config.json into `configDir` (made if missing) with these profiles. */
export function writeProfiles(configDir: string, profiles: Record<string, ProfileData>): void {
  mkdirSync(configDir, { recursive: true });
  writeFileSync(join(configDir, 'config.json'), `${JSON.stringify({ profiles }, null, 2)}\n`, { mode: 0o600 });
}

/** `count` profiles named client-001.., each on `url` with the all-scopes key, or the revoked one for those in `revoked`. */
export function fleet(
  url: string | undefined,
  count: number,
  revoked: readonly number[] = [],
  name = clientName,
): Record<string, ProfileData> {
  const profiles: Record<string, ProfileData> = {};
  for (let i = 1; i <= count; i++) {
    const key: DemoKey['id'] = revoked.includes(i) ? 'revoked' : 'all';
    profiles[name(i)] = { ...(url === undefined ? {} : { baseUrl: url }), key: demoKey(key) };
  }
  return profiles;
}

export interface CountingSandbox {
  sandbox: Sandbox;
  /** The most requests the sandbox held at once. */
  maxInFlight(): number;
  /** Requests answered 401. */
  refused(): number;
}

/** A sandbox that counts the requests it holds at once (from arrival to answer). */
export async function countingSandbox(options: SandboxOptions = {}): Promise<CountingSandbox> {
  let inFlight = 0;
  let max = 0;
  const sandbox = await startSandbox({
    ...options,
    faults: () => {
      max = Math.max(max, ++inFlight);
      return undefined;
    },
    onRequest: () => void inFlight--,
  });
  return { sandbox, maxInFlight: () => max, refused: () => sandbox.requests.filter((r) => r.status === 401).length };
}

export function readRecord(dir: string, name = 'run.json'): RunRecord {
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as RunRecord;
}
