import { setValue } from './envValue.js';
import { withRenamedVariables } from './retired.js';
import { ConfigSchema, type Config } from './schema.js';

/** A start-up configuration problem; its message names every bad variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the configuration once, at start. Values are trimmed, and empty ones count as unset; a renamed one counts under its new name. */
export function loadConfig(given: NodeJS.ProcessEnv = process.env): Config {
  const env = withRenamedVariables(given);
  const known = Object.keys(ConfigSchema.shape);
  const input = Object.fromEntries(
    known.flatMap((name) => {
      const value = setValue(env, name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const result = ConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'configuration');
    return `  ${name}=${JSON.stringify(input[name] ?? '')}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
