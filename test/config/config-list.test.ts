// `cdata config list`: every setting of the profile in use (all of schema.ts SETTINGS), with its
// value and where it came from, as settings resolution decides it (flag > env > profile >
// default), in every output format.
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config/schema.js';
import { cdata, configHome } from '../auth/harness.js';

const list = async (
  argv: string[],
  env: Record<string, string>,
  options: { stdoutTTY?: boolean; stderrTTY?: boolean } = {},
) => {
  const result = await cdata(['config', 'list', ...argv], { env, ...options });
  expect(result.code).toBe(0);
  return result;
};

describe('config list', () => {
  it('names every setting there is, each with a source, also when nothing is set', async () => {
    // No -o: a format flag would itself be the output setting. A pipe gets tsv.
    const result = await list([], configHome().env);
    expect(result.stdout).toBe(
      'setting\tvalue\tsource\nbase-url\t\tdefault\noutput\t\tdefault\ntimeout\t30\tdefault\nkey-command\t\tdefault\npager\t\tdefault\n',
    );
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((row) => row.split('\t')[0]),
    ).toEqual(Object.keys(SETTINGS));
    const json = await list(['--json'], configHome().env);
    expect(JSON.parse(json.stdout)).toEqual([
      { setting: 'base-url', value: null, source: 'default' },
      { setting: 'output', value: 'json', source: 'flag' },
      { setting: 'timeout', value: 30, source: 'default' },
      { setting: 'key-command', value: null, source: 'default' },
      { setting: 'pager', value: null, source: 'default' },
    ]);
  });

  it("says where each value comes from: the profile's, then the environment over it, then a flag over both", async () => {
    const home = configHome();
    for (const [name, value] of [
      ['base-url', 'https://stored.example'],
      ['output', 'csv'],
      ['timeout', '12'],
    ]) {
      expect((await cdata(['config', 'set', name!, value!], { env: home.env })).code).toBe(0);
    }
    const stored = await list(['-o', 'ndjson'], home.env);
    // -o ndjson is itself the output setting, given as a flag.
    expect(stored.stdout).toBe(
      '{"setting":"base-url","value":"https://stored.example","source":"profile"}\n' +
        '{"setting":"output","value":"ndjson","source":"flag"}\n' +
        '{"setting":"timeout","value":12,"source":"profile"}\n' +
        '{"setting":"key-command","value":null,"source":"default"}\n' +
        '{"setting":"pager","value":null,"source":"default"}\n',
    );
    const env = { ...home.env, CDATA_BASE_URL: 'https://env.example' };
    // The profile's output (csv) is the format when no flag chooses one.
    expect((await list([], env)).stdout).toBe(
      'setting,value,source\r\nbase-url,https://env.example,env\r\noutput,csv,profile\r\ntimeout,12,profile\r\nkey-command,,default\r\npager,,default\r\n',
    );
    const flagged = await list(['--base-url', 'https://flag.example', '--timeout', '3', '-o', 'tsv'], env);
    expect(flagged.stdout).toBe(
      'setting\tvalue\tsource\nbase-url\thttps://flag.example\tflag\noutput\ttsv\tflag\ntimeout\t3\tflag\nkey-command\t\tdefault\npager\t\tdefault\n',
    );
  });

  it('at a terminal: a table, and which profile on stderr', async () => {
    const home = configHome();
    await cdata(['-p', 'prod', 'config', 'set', 'timeout', '9'], { env: home.env });
    // A setting added after config list was written (issue 21's key-command) is listed too.
    await cdata(['-p', 'prod', 'config', 'set', 'key-command', 'pass show cdata/prod'], { env: home.env });
    const result = await list(['-p', 'prod', '--color', 'never'], home.env, { stdoutTTY: true, stderrTTY: true });
    expect(result.stdout.split('\n').map((line) => line.trimEnd())).toEqual([
      'setting      value                 source',
      'base-url                           default',
      'output                             default',
      'timeout                         9  profile',
      'key-command  pass show cdata/prod  profile',
      'pager                              default',
      '',
    ]);
    expect(result.stderr).toBe("Profile 'prod', chosen with -p.\n");
    const fields = await list(['-p', 'prod', '-f', 'source,setting', '--no-header', '-o', 'csv'], home.env);
    expect(fields.stdout).toBe(
      'default,base-url\r\nflag,output\r\nprofile,timeout\r\nprofile,key-command\r\ndefault,pager\r\n',
    );
  });

  it('a named profile that does not exist: exit 2', async () => {
    const result = await cdata(['-p', 'nope', 'config', 'list'], { env: configHome().env });
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "error: no profile 'nope' (there are no profiles yet)\n",
    });
  });
});
