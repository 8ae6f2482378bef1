// `cdata profile list | use NAME | remove NAME`.
import { defineCommand } from '../../spec/command.js';
import { PROFILE_LISTING } from './views.js';

export const PROFILE_NAME_ARGS = [{ name: 'name', description: 'profile name', required: true, complete: { kind: 'profiles' } }] as const;

export const PROFILE_COMMAND = defineCommand({
  name: 'profile',
  summary: 'List, choose and remove profiles',
  examples: ['cdata profile list', 'cdata profile use staging'],
  subcommands: [
    defineCommand({
      name: 'list',
      summary: 'List profiles; the default is marked',
      examples: ['cdata profile list', "cdata profile list --json | jq -r '.[].name'"],
      writesOutput: true,
      view: PROFILE_LISTING,
      load: async () => (await import('../profile.js')).list,
    }),
    defineCommand({
      name: 'use',
      summary: 'Make a profile the default',
      args: PROFILE_NAME_ARGS,
      examples: ['cdata profile use prod'],
      load: async () => (await import('../profile.js')).use,
    }),
    defineCommand({
      name: 'remove',
      summary: 'Remove a profile and its stored key',
      args: PROFILE_NAME_ARGS,
      examples: ['cdata profile remove staging'],
      load: async () => (await import('../profile.js')).remove,
    }),
  ],
});
