// cdata imports three of undici's internal modules (src/client/transport.ts), which is why undici
// is pinned exactly and every build checks them first (scripts/check-undici.mjs). Here the check
// meets stand-ins for an upgraded undici: each way an upgrade can break the imports stops it with
// a message that says what to do.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain script, without types
import { checkUndiciInternals } from '../../scripts/check-undici.mjs';
import { scratch } from '../faults/scratch.js';

const check = checkUndiciInternals as (root: URL, pinned: string) => void;
const folder = scratch('cdata-undici');

/** A project folder whose node_modules/undici holds `files`. */
function project(version: string, files: Record<string, string>): URL {
  const root = folder();
  writeFileSync(join(root, 'package.json'), '{}');
  const undici = join(root, 'node_modules', 'undici');
  for (const [path, text] of Object.entries({
    'package.json': JSON.stringify({ name: 'undici', version }),
    ...files,
  })) {
    mkdirSync(dirname(join(undici, path)), { recursive: true });
    writeFileSync(join(undici, path), text);
  }
  return pathToFileURL(`${root}/`);
}

const AGENT = 'module.exports = class Agent { dispatch() {} destroy() {} };';
const REQUEST = 'module.exports = function request(opts, callback) {};';
const CONNECT = 'module.exports = function buildConnector(options) {};';
const good = { 'lib/dispatcher/agent.js': AGENT, 'lib/api/api-request.js': REQUEST, 'lib/core/connect.js': CONNECT };

describe("the build's check of undici's internal modules", () => {
  it('passes the version this repository pins, as installed', () => {
    const pinned = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        devDependencies: { undici: string };
      }
    ).devDependencies.undici;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(() => check(new URL('../../', import.meta.url), pinned)).not.toThrow();
    expect(() => check(project('7.30.2', good), '7.30.2')).not.toThrow();
  });

  it.each([
    [
      'a range instead of a pin',
      '7.30.2',
      '^7.30.2',
      good,
      /package\.json must pin undici to an exact version \(it says "\^7\.30\.2"\)/,
    ],
    [
      'another version installed',
      '8.0.0',
      '7.30.2',
      good,
      /undici 8\.0\.0: installed, but package\.json pins 7\.30\.2: run npm ci/,
    ],
    [
      'a module moved',
      '8.0.0',
      '8.0.0',
      { 'lib/api/api-request.js': REQUEST },
      /undici 8\.0\.0: its internal modules cannot be loaded/,
    ],
    [
      'Agent no longer a class',
      '8.0.0',
      '8.0.0',
      { ...good, 'lib/dispatcher/agent.js': 'module.exports = {};' },
      /lib\/dispatcher\/agent\.js no longer exports the Agent class/,
    ],
    [
      'request with another signature',
      '8.0.0',
      '8.0.0',
      { ...good, 'lib/api/api-request.js': 'module.exports = function request(opts) {};' },
      /no longer exports request\(options, callback\)/,
    ],
    [
      'the connector moved',
      '8.0.0',
      '8.0.0',
      { 'lib/dispatcher/agent.js': AGENT, 'lib/api/api-request.js': REQUEST },
      /undici 8\.0\.0: its internal modules cannot be loaded/,
    ],
    [
      'buildConnector with another signature',
      '8.0.0',
      '8.0.0',
      { ...good, 'lib/core/connect.js': 'module.exports = { buildConnector() {} };' },
      /lib\/core\/connect\.js no longer exports buildConnector\(options\)/,
    ],
  ])('stops on %s, saying what to do', (_case, installed, pinned, files, message) => {
    expect(() => check(project(installed, files), pinned)).toThrow(message);
    expect(() => check(project(installed, files), pinned)).toThrow(
      /update those imports and src\/types\/undici-internals\.d\.ts, pin the new version exactly/,
    );
  });
});
