// Test helpers for talking to the sandbox directly (what cdata's output must equal), for
// sandboxes that misbehave on chosen requests, and for an address nothing listens on.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach } from 'vitest';
import type { Endpoint } from '../../src/core/endpoints.js';
import { parseJson, type JsonValue } from '../../src/core/json.js';
import type { Fault } from '../../src/sandbox/faults.js';
import { demoKey, type DemoKey } from '../../src/sandbox/keys.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';

/** A fixed clock for the sandbox and for cdata: the demo data and runwayDays stay put. */
export const NOW = Date.parse('2026-11-22T06:00:00.000Z');

/** What the sandbox answers for this endpoint and query, parsed losslessly (numbers as written). */
export async function fetchDirect(
  sandbox: Sandbox,
  endpoint: Endpoint,
  query: Record<string, string> = {},
  key: DemoKey['id'] = 'all',
): Promise<JsonValue> {
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${sandbox.url}${endpoint.path}${search ? `?${search}` : ''}`, {
    headers: { 'X-API-Key': demoKey(key) },
  });
  if (response.status !== 200) throw new Error(`sandbox answered ${response.status} for ${endpoint.path}`);
  return parseJson(await response.text());
}

/** Faults by request index (0-based); requests not listed are answered normally. */
export function faultsAt(faults: Record<number, Fault>): SandboxOptions['faults'] {
  return (index) => faults[index];
}

/** The same fault for every request. */
export function faultAlways(fault: Fault): SandboxOptions['faults'] {
  return () => fault;
}

/** Starts sandboxes inside a test; each is stopped after that test. */
export function useSandboxes(): (options?: SandboxOptions) => Promise<Sandbox> {
  const open: Sandbox[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
  });
  return async (options = {}) => {
    const sandbox = await startSandbox({ now: () => NOW, ...options });
    open.push(sandbox);
    return sandbox;
  };
}

/** Where the system's ephemeral ports start (Linux's default, where it cannot be read). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A loopback port nothing listens on: connecting is refused. Chosen below the system's ephemeral
 * range, where no `listen(0)` lands: a port the kernel hands out, freed again, could be handed to
 * a sandbox of a test running beside this one before cdata connects (the request then succeeds).
 */
export async function closedPort(): Promise<number> {
  const low = ephemeralLow();
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * Math.max(1, low - 20_000));
    const server = createServer();
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!free) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
}
