// `cdata config list | get | set | unset | path`: a profile's settings.
import { defineCommand } from '../../command-kit/command.js';
import { SETTINGS_LISTING } from '../../command-kit/local-views.js';

const settingArg = {
  name: 'key',
  description: 'base-url, output, timeout, key-command or pager',
  required: true,
  complete: { kind: 'settings' },
} as const;

export const SETTING_ARGS = [settingArg] as const;
export const SET_ARGS = [
  settingArg,
  { name: 'value', description: 'the new value', required: true, complete: { kind: 'settingValue' } },
] as const;

export const CONFIG_COMMAND = defineCommand({
  name: 'config',
  summary: "Read and change a profile's settings",
  examples: ['cdata config set output json', 'cdata config get base-url --profile prod'],
  subcommands: [
    defineCommand({
      name: 'list',
      summary: 'Show every setting of the profile, its value and where it comes from',
      description:
        'The source of each value: flag, env (an environment variable), profile (the config file) or default.',
      examples: ['cdata config list', 'cdata config list --profile prod --json'],
      usesProfile: true,
      writesOutput: true,
      view: SETTINGS_LISTING,
    }),
    defineCommand({
      name: 'get',
      summary: 'Print a setting of the profile',
      args: SETTING_ARGS,
      examples: ['cdata config get base-url'],
      usesProfile: true,
    }),
    defineCommand({
      name: 'set',
      summary: 'Change a setting of the profile',
      args: SET_ARGS,
      examples: [
        'cdata config set output json',
        'cdata config set timeout 60 --profile prod',
        "cdata config set key-command 'pass show cdata/prod' --profile prod",
      ],
      usesProfile: true,
    }),
    defineCommand({
      name: 'unset',
      summary: 'Remove a setting from the profile',
      args: SETTING_ARGS,
      examples: ['cdata config unset output'],
      usesProfile: true,
    }),
    defineCommand({
      name: 'path',
      summary: "Print the config file's path",
      examples: ['cdata config path'],
    }),
  ],
});
