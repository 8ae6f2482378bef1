// `cdata profile list | use NAME | remove NAME`.
import { defineCommand } from '../../command-kit/command.js';
import { PROFILE_LISTING } from '../../command-kit/local-views.js';

export const PROFILE_NAME_ARGS = [
  { name: 'name', description: 'profile name', required: true, complete: { kind: 'profiles' } },
] as const;

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
    }),
    defineCommand({
      name: 'use',
      summary: 'Make a profile the default',
      args: PROFILE_NAME_ARGS,
      examples: ['cdata profile use prod'],
    }),
    defineCommand({
      name: 'remove',
      summary: 'Remove a profile and its stored key',
      args: PROFILE_NAME_ARGS,
      examples: ['cdata profile remove staging'],
    }),
  ],
});
