/** The built JavaScript of a program (one a process or a thread starts with), given by its source's path under the repository (e.g. 'src/main.ts'). */
export function builtPath(source: string): Promise<string>;
/** The parse threads' task built alone (well under a second), and its path: what every test worker needs first. */
export function builtParseTask(): Promise<string>;
/** Starts this process's build of the programs, for whoever asks builtPath later. */
export function startProgramsBuild(): void;
/** Stops the build startProgramsBuild began if it is still under way (the run needed no program). */
export function stopUnfinishedProgramsBuild(): Promise<void>;
