import { TroupeError } from '@troupe/core';
import { GraphErrorCode } from './graph-file-error.js';

/** Thrown when a graph is asked for an agent it does not define; `available` lists the ones it does. */
export class UnknownAgentError extends TroupeError {
  readonly agentName: string;
  readonly available: readonly string[];

  constructor(name: string, available: readonly string[]) {
    super(GraphErrorCode.UnknownAgent, `unknown agent "${name}": available agents: ${available.join(', ')}`, { data: { name, available } });
    this.agentName = name;
    this.available = available;
  }
}
