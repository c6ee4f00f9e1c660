/** What a worker reports about itself (service stats and `troupe workers`). */
export interface WorkerLoad {
  id: string;
  agents: string[];
  graph: string;
  /** Tasks running now, and the most it runs at once. */
  running: number;
  capacity: number;
  /** Tasks taken (deliveries), ended, set aside waiting for a user (`parked`), and dead-lettered since it started. */
  taken: number;
  ended: number;
  parked: number;
  deadLettered: number;
}
