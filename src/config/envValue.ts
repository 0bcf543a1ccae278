/** A variable's value as the configuration counts it: trimmed, and unset when empty. */
export function setValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}
