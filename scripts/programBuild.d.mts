/** The built JavaScript of a source file, given by its path under the repository (e.g. 'src/main.ts'). */
export function builtPath(source: string): Promise<string>;
