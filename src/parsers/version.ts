/**
 * Part of every cache key. Bump it whenever a parser's output changes, so that answers parsed
 * by the old code are never served after the fix.
 */
export const PARSER_VERSION = 3;
