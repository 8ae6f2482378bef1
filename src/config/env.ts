// Every environment variable cdata reads, once, with its meaning: `--help` and the README's
// environment section are generated from this list.

export const ENV_VARS = [
  { name: 'CDATA_PROFILE', meaning: 'profile to use (like -p/--profile)' },
  { name: 'CDATA_BASE_URL', meaning: 'API origin (like --base-url)' },
  { name: 'CDATA_API_KEY', meaning: "API key; wins over the profile's stored key or key command" },
  {
    name: 'CDATA_CONFIG_DIR',
    meaning: 'folder of the config file (default: $XDG_CONFIG_HOME/cdata or ~/.config/cdata)',
  },
  {
    name: 'CDATA_DEBUG',
    meaning:
      'set to 1 for a request trace on stderr (like --debug); the key is redacted; another value but 0: a warning',
  },
  {
    name: 'CDATA_PAGER',
    meaning: "pager for data longer than the terminal (wins over the profile's pager and PAGER); empty: none",
  },
  {
    name: 'PAGER',
    meaning: "pager when neither CDATA_PAGER nor the profile's pager is set (default: less -FRX); empty: none",
  },
  { name: 'NO_COLOR', meaning: 'disable colour when --color is auto' },
  { name: 'FORCE_COLOR', meaning: 'force colour when --color is auto (0 disables)' },
  {
    name: 'TERM',
    meaning: "the terminal's kind; dumb, or unset or empty off Windows: no colour, pager or spinner",
  },
  { name: 'HTTPS_PROXY', meaning: 'proxy for the API, through a CONNECT tunnel (it sees the host, never the key)' },
  { name: 'HTTP_PROXY', meaning: 'used as HTTPS_PROXY when that is unset' },
  { name: 'NO_PROXY', meaning: 'hosts that bypass the proxy; loopback always does (all three in lower case too)' },
] as const;

export type EnvName = (typeof ENV_VARS)[number]['name'];

export type Env = Readonly<Record<string, string | undefined>>;

/** The value of a variable, or undefined when unset or empty (an empty variable means unset). */
export function envValue(env: Env, name: EnvName): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}
