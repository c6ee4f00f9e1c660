/**
 * Told about the process groups tools start, while they run, so that whoever hosts the tools can
 * record them and, after the hosting process was killed, end what it left running (a killed
 * process cannot kill its tools' groups itself).
 *
 * Contract: a tool calls `started` right after it spawned a group's leader, with the leader's pid
 * (the group's id), and calls the function it returns once it no longer runs the group (it ended,
 * or the tool killed it). Neither throws: a tracker that cannot record keeps the failure to itself.
 */
export interface ProcessGroupTracker {
  started(pgid: number): () => void;
}
