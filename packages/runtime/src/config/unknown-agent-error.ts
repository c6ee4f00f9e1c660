import { TroupeError } from '@troupe/core';
import { didYouMean } from './did-you-mean.js';
import { GraphErrorCode } from '../runtime-error-codes.js';

/**
 * Thrown when a graph is asked for an agent it does not define; `available` lists the ones it
 * does, and the message suggests the closest one when the name looks like a typo of it.
 */
export class UnknownAgentError extends TroupeError {
  readonly agentName: string;
  readonly available: readonly string[];

  constructor(name: string, available: readonly string[]) {
    const suggestion = didYouMean(name, available);
    super(
      GraphErrorCode.UnknownAgent,
      `unknown agent "${name}"${suggestion === undefined ? '' : ` (${suggestion})`}: available agents: ${available.join(', ')}`,
      { data: { name, available } },
    );
    this.agentName = name;
    this.available = available;
  }
}
