/** A CLI subcommand: `run` gets the arguments after the subcommand name and resolves to an exit code. */
export interface Command {
  readonly run: (args: ReadonlyArray<string>) => Promise<number>
}

/** Exit code for bad usage or bad input, as in most Unix tools. */
export const EXIT_USAGE = 2
