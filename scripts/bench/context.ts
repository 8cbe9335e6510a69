/** What every section gets from the command line. */
export type Context = {
  /** Reduced counts and durations: checks the benchmark works, not the reference figures. */
  quick: boolean;
  /** Record a CPU profile of the server during the load test (section server). */
  cpuProfile: boolean;
  log: (message: string) => void;
};
