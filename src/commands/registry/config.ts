// `cdata config get | set | unset | path`: a profile's settings.
import { defineCommand } from '../../spec/command.js';

const settingArg = { name: 'key', description: 'base-url, output, timeout, key-command or pager', required: true, complete: { kind: 'settings' } } as const;

export const SETTING_ARGS = [settingArg] as const;
export const SET_ARGS = [settingArg, { name: 'value', description: 'the new value', required: true, complete: { kind: 'settingValue' } }] as const;

export const CONFIG_COMMAND = defineCommand({
  name: 'config',
  summary: "Read and change a profile's settings",
  examples: ['cdata config set output json', 'cdata config get base-url --profile prod'],
  subcommands: [
    defineCommand({
      name: 'get',
      summary: 'Print a setting of the profile',
      args: SETTING_ARGS,
      examples: ['cdata config get base-url'],
      load: async () => (await import('../config.js')).get,
    }),
    defineCommand({
      name: 'set',
      summary: 'Change a setting of the profile',
      args: SET_ARGS,
      examples: ['cdata config set output json', 'cdata config set timeout 60 --profile prod', "cdata config set key-command 'pass show cdata/prod' --profile prod"],
      load: async () => (await import('../config.js')).set,
    }),
    defineCommand({
      name: 'unset',
      summary: 'Remove a setting from the profile',
      args: SETTING_ARGS,
      examples: ['cdata config unset output'],
      load: async () => (await import('../config.js')).unset,
    }),
    defineCommand({
      name: 'path',
      summary: "Print the config file's path",
      examples: ['cdata config path'],
      load: async () => (await import('../config.js')).path,
    }),
  ],
});
