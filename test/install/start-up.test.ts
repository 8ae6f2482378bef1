// Start-up on every supported Node line: nothing from the runtime on stderr (no V8 flag this Node
// does not know, no warning, NO_COLOR beside FORCE_COLOR included), and V8's flags asked for
// only where a command is about to work. How it starts (bin/start-up.cjs: the compile cache,
// each V8 flag's effect, an older Node refused) is start-up.heavy.test.ts. CI runs both on Node
// 20, 22, 24 and 26.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { HttpMock, json } from '../helpers/http-mock.js';
import { testIo } from '../helpers/io.js';
import { runBin } from '../helpers/spawn.js';
import { scratch } from '../faults/scratch.js';

const folder = scratch('cdata-start-up');

it('says nothing of its own on stderr: a list, an export under -q, a query', async () => {
  const env = { CDATA_CONFIG_DIR: folder() };
  const list = await runBin(['--sandbox', 'tenders', '-o', 'json'], { env });
  expect([list.code, list.stderr]).toEqual([0, '']);
  expect(JSON.parse(list.stdout)).toHaveLength(64);
  const exported = await runBin(['--sandbox', 'export', '--dir', join(folder(), 'out'), '-q'], { env });
  expect([exported.code, exported.stderr, exported.stdout]).toEqual([0, '', '']);
  const query = await runBin(['--sandbox', 'tenders', '--query', 'length(@)'], { env });
  expect([query.code, query.stderr, query.stdout]).toEqual([0, '', '64\n']);
});

it('says nothing with NO_COLOR and FORCE_COLOR both set (Node 22 and later warn as node:assert loads); NO_COLOR wins', async () => {
  const env = { CDATA_CONFIG_DIR: folder(), NO_COLOR: '1', FORCE_COLOR: '1' };
  const list = await runBin(['--sandbox', 'tenders', '-o', 'json', '--limit', '1'], { env });
  expect([list.code, list.stderr]).toEqual([0, '']);
  const exported = await runBin(['--sandbox', 'export', '--dir', join(folder(), 'out'), '-q'], { env });
  expect([exported.code, exported.stderr]).toEqual([0, '']);
  const table = await runBin(['--sandbox', 'tenders', '--limit', '1', '--color', 'auto', '-o', 'table'], { env });
  expect([table.code, table.stderr]).toEqual([0, '']);
  expect(table.stdout).not.toContain('\u001b[');
});

it("asks for V8's flags before the first request, after the modules that send it, or before changes reads; not otherwise", async () => {
  // bin/cdata.js sets the flags in this seam: Node's own modules loaded after a flag changed lose
  // the code V8 compiled at Node's build (bin/start-up.cjs).
  const events: string[] = [];
  const mock = new HttpMock().on('GET', '/api/v1/tenders', json(200, []));
  const seams = {
    transport: (...args: Parameters<typeof mock.transport>) => {
      events.push('transport');
      return mock.transport(...args);
    },
    beforeWork: () => void events.push('flags'),
  };
  const env = {
    CDATA_CONFIG_DIR: folder(),
    CDATA_BASE_URL: 'https://api.example.test',
    CDATA_API_KEY: 'svc_mockedkey0123456789',
  };
  const list = testIo({ env });
  expect(await main(['tenders', '-o', 'json'], list.io, seams)).toBe(0);
  expect([list.stdout(), list.stderr()]).toEqual(['[]\n', '']);
  expect(events).toEqual(['flags', 'transport']);

  events.length = 0;
  const completion = testIo({ env });
  expect(await main(['completion', 'bash'], completion.io, seams)).toBe(0);
  expect(events).toEqual([]);

  // cdata changes sends nothing, but may read a 375 MB changes.ndjson: the flags before it reads.
  const changes = testIo({ env });
  expect(await main(['changes', '--dir', folder()], changes.io, seams)).toBe(0);
  expect(events).toEqual(['flags']);
});
