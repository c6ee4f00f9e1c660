import type { AgentPort } from './agent-port.js';
import type { ChartObserver } from './chart-runner.js';
import type { Clock } from './clock.js';
import type { UnstampedEvent } from './unstamped-event.js';
import type { AgentPath, RunId } from './ids.js';
import type { AgentMachineEvent, MachineOutput } from './machine-types.js';

/** The parts of an agent its link calls: given once by the agent class (they reach its private members). */
export interface AgentInternals<A> {
  publish(agent: A, event: UnstampedEvent): void;
  send(agent: A, event: AgentMachineEvent): void;
  transitioned(agent: A, outbox: MachineOutput[]): void;
  crashed(agent: A, error: unknown): void;
  runId(agent: A): RunId;
  sessionId(agent: A): string;
}

let internals: AgentInternals<object> | undefined;

/** Called once, by the agent class's static block. */
export function connectAgentInternals<A extends object>(given: AgentInternals<A>): void {
  internals = given as AgentInternals<object>;
}

function agentInternals(): AgentInternals<object> {
  if (internals === undefined) throw new Error('agent internals are not connected');
  return internals;
}

/**
 * An agent's side as its effects and its statechart runner see it (see {@link AgentPort}): one per
 * agent, its methods shared by all, each forwarding to the agent.
 */
export class AgentLink implements AgentPort, ChartObserver {
  readonly #agent: object;
  readonly #clock: Clock;
  readonly agentPath: AgentPath;

  constructor(agent: object, agentPath: AgentPath, clock: Clock) {
    this.#agent = agent;
    this.agentPath = agentPath;
    this.#clock = clock;
  }

  now(): number {
    return this.#clock.now();
  }

  runId(): RunId {
    return agentInternals().runId(this.#agent);
  }

  sessionId(): string {
    return agentInternals().sessionId(this.#agent);
  }

  emit(event: UnstampedEvent): void {
    agentInternals().publish(this.#agent, event);
  }

  send(event: AgentMachineEvent): void {
    agentInternals().send(this.#agent, event);
  }

  transitioned(outbox: MachineOutput[]): void {
    agentInternals().transitioned(this.#agent, outbox);
  }

  crashed(error: unknown): void {
    agentInternals().crashed(this.#agent, error);
  }
}
