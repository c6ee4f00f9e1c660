/** Small helpers shared by the benchmark scripts. */

/** The median of `values` (which it sorts). */
export function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

/** `min–max` of `values`, rounded: how far runs on a noisy machine spread around the median. */
export function spread(values: number[]): string {
  return `${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}`;
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

/** Prints one JSON line of figures. */
export function report(figures: Record<string, string | number>): void {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

/** Reads `--name value` from argv as a number. */
export function numberArg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : Number.NaN;
  return Number.isFinite(value) ? value : fallback;
}

/** Reads `--name value` from argv as a string; throws when it is missing. */
export function stringArg(name: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

/** `value` rounded to one decimal. */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

/** `bytes` in MB, rounded to one decimal. */
export function mb(bytes: number): number {
  return round1(bytes / 1024 / 1024);
}

/** Wall and CPU time of one run, in ms. */
export interface Timing {
  wall: number;
  /** User + system CPU time of this process (GC threads included): steadier than wall time when other processes share the cores. */
  cpu: number;
}

/** Runs `fn` and measures its wall and CPU time. */
export async function timed(fn: () => Promise<unknown>): Promise<Timing> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}
