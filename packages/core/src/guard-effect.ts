import type { AgentPort } from './agent-port.js';
import { ErrorCode } from './errors.js';
import { type GuardrailVerdict, inputText, rewriteInput, type InputGuardrail } from './input-guardrails.js';
import type { AgentMachineEvent } from './machine-types.js';
import type { Message } from './messages.js';

/** What the guard effect needs. */
export interface GuardEffectDeps {
  guardrails: readonly InputGuardrail[];
  /** The agent: its time and statechart. */
  port: AgentPort;
}

interface InFlight {
  request: number;
  controller: AbortController;
}

/**
 * The long-lived effect that carries out `cmd.guard`: runs the agent's input guardrails over a
 * prompt in order and answers the machine with `GUARD.DONE` (the prompt as they passed it, maybe
 * rewritten) or `GUARD.REJECTED` (the first rejection, or a guardrail that threw). One check at a
 * time; a cancelled one is aborted and its answer dropped.
 */
export class GuardEffect {
  readonly #deps: GuardEffectDeps;
  #current: InFlight | undefined;

  constructor(deps: GuardEffectDeps) {
    this.#deps = deps;
  }

  /** Checks `messages` for `request`. */
  run(request: number, messages: readonly Message[]): void {
    const flight: InFlight = { request, controller: new AbortController() };
    this.#current = flight;
    this.#check(flight, messages).catch((error: unknown) => this.#reject(flight, 'guardrails', String(error), true));
  }

  /** Aborts the check for `request`. */
  cancel(request: number): void {
    const flight = this.#current;
    if (flight === undefined || flight.request !== request) return;
    this.#current = undefined;
    flight.controller.abort();
  }

  async #check(flight: InFlight, input: readonly Message[]): Promise<void> {
    let messages = input;
    for (const guardrail of this.#deps.guardrails) {
      let verdict: GuardrailVerdict | undefined;
      try {
        verdict = await guardrail.check({ text: inputText(messages), messages }, { signal: flight.controller.signal });
      } catch (error) {
        this.#reject(flight, guardrail.name, `guardrail ${guardrail.name} failed: ${error instanceof Error ? error.message : String(error)}`, true);
        return;
      }
      if (this.#current !== flight) return;
      if (verdict?.action === 'reject') {
        this.#reject(flight, guardrail.name, verdict.reason, false);
        return;
      }
      if (verdict?.action === 'rewrite') messages = rewriteInput(messages, verdict.text);
    }
    this.#current = undefined;
    this.#deps.port.send({ type: 'GUARD.DONE', request: flight.request, messages: [...messages], at: this.#deps.port.now() });
  }

  #reject(flight: InFlight, guardrail: string, reason: string, failed: boolean): void {
    if (this.#current !== flight) return;
    this.#current = undefined;
    const event: AgentMachineEvent = { type: 'GUARD.REJECTED', request: flight.request, guardrail, reason, at: this.#deps.port.now() };
    if (failed) event.error = { code: ErrorCode.GuardrailFailed, message: reason, data: { guardrail } };
    this.#deps.port.send(event);
  }
}
