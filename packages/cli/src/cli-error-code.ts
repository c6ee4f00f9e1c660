/**
 * Error codes the `troupe` command raises itself (every other error comes from a package below it,
 * with that package's code). Exit codes are a different thing: see `exit-code.ts`.
 */
export const CliErrorCode = {
  /** A process that only controls remote actors was asked to host one (a bug). */
  HostsNothing: 'hosts_nothing',
} as const;

/** One of the {@link CliErrorCode} values. */
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];
