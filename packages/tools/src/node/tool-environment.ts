/** Names of variables that hold credentials by convention: not passed to tools' processes unless named. */
const SECRET_NAME = /^TROUPE_|_API_KEY$|_TOKEN$|_SECRET$|_SECRET_|PASSWORD|^AWS_SECRET_ACCESS_KEY$|^AWS_SESSION_TOKEN$|^GITHUB_TOKEN$|^NPM_TOKEN$/i;

/**
 * The environment a tool's process gets: this process's, without the variables that look like
 * credentials (`TROUPE_*`, `*_API_KEY`, `*_TOKEN`, `*_SECRET`, passwords) unless `pass` names
 * them, plus `extra`.
 */
export function toolEnvironment(env: NodeJS.ProcessEnv, pass: readonly string[] = [], extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const allowed = new Set(pass);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (allowed.has(name) || !SECRET_NAME.test(name)) out[name] = value;
  return { ...out, ...extra };
}
