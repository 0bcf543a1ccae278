/** The built JavaScript of a program (one a process or a thread starts with), given by its source's path under the repository (e.g. 'src/main.ts'). */
export function builtPath(source: string): Promise<string>;
