/** Now, in epoch milliseconds with sub-millisecond precision: the clock the OpenTelemetry SDK stamps spans with. */
export function spanTime(): number {
  return performance.timeOrigin + performance.now();
}
