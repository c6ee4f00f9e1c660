import { Empty, errors, type Msg } from '@nats-io/transport-node';
import { TroupeError, type AgentPath, type RunId } from '@troupe/core';
import { TransportErrorCode, type ControlCommand } from '@troupe/runtime';
import type { NatsResources } from '../connection/nats-resources.js';
import { NatsErrorCode } from '../nats-error-code.js';
import type { UnhostedControl } from './unhosted-control.js';

/** Options of {@link ControlLine}. */
export interface ControlLineOptions {
  resources: NatsResources;
  /** Control of an actor no process answers for. */
  unhosted: Pick<UnhostedControl, 'control'>;
  /** How long a request waits for the actor's host to answer. Default 5000 ms. */
  controlTimeoutMs?: number;
  /** How long a command keeps trying while the actor is between hosts. Default 10 s. */
  handoverTimeoutMs?: number;
}

/** An actor's control subject, as the process hosting it (or about to) listens to it. */
export interface ControlListener {
  /** Applies commands with `apply` from now on, those that came before first, in order. */
  attach(apply: (command: ControlCommand) => void): void;
  /**
   * Stops listening. Commands still waiting for {@link attach}, and those already on their way here,
   * are answered that the actor moved: their senders deal with them from its record.
   */
  close(): void;
}

/**
 * How a probe (an empty request on an actor's control subject) ends: a process `answered`,
 * `nobody` subscribes (NATS says so at once), or a subscriber stayed `silent` until the timeout.
 */
export type ProbeAnswer = 'answered' | 'nobody' | 'silent';

/**
 * What the host of an actor answers on its control subject: done, failed, or `moved` (it let the
 * actor go as the request came; the sender treats it as no host at all).
 */
interface ControlReply {
  ok?: true;
  error?: { code: string; message: string };
  moved?: true;
}

const MOVED = JSON.stringify({ moved: true } satisfies ControlReply);

/**
 * The control subject of each actor of a distributed run (`…run.<runId>.control.<path>`), from
 * both ends: its host answers the commands sent there ({@link answer}), anyone else sends them
 * ({@link send}), and an empty request asks only whether a process hosts the actor
 * (a probe: {@link hostedOrSilent}, {@link answers}). NATS says at once when nobody subscribes, so an actor no process hosts is
 * told apart from a slow one without waiting.
 */
export class ControlLine {
  readonly #options: ControlLineOptions;

  constructor(options: ControlLineOptions) {
    this.#options = options;
  }

  /**
   * Sends `command` to the actor's host; when no process hosts it, has {@link UnhostedControl}
   * deal with it from its record, and tries again while it is between hosts (queued, or being
   * redelivered) for up to `handoverTimeoutMs`. A host that stays silent for `controlTimeoutMs`
   * fails it with `control_timeout`.
   */
  async send(runId: RunId, path: AgentPath, command: ControlCommand): Promise<void> {
    const deadline = Date.now() + (this.#options.handoverTimeoutMs ?? 10_000);
    const timeoutMs = this.#timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#request(runId, path, JSON.stringify(command), timeoutMs).catch((error: unknown) => {
        if (!(error instanceof errors.TimeoutError)) throw error;
        throw new TroupeError(
          NatsErrorCode.ControlTimeout,
          `the host of actor ${path} of run ${runId} did not answer the ${command.type} within ${timeoutMs} ms (it is busy, or its process died ` +
            'and NATS has not noticed yet); it may or may not have been applied: look at the run before sending it again',
          { data: { runId, path, command: command.type, timeoutMs } },
        );
      });
      if (answer !== undefined) {
        if (answer.error !== undefined) throw new TroupeError(answer.error.code, answer.error.message);
        return;
      }
      const handled = await this.#options.unhosted.control(runId, path, command);
      if (handled) return;
      if (Date.now() > deadline) {
        throw new TroupeError(TransportErrorCode.Busy, `actor ${path} of run ${runId} is between hosts (queued or being redelivered); try again`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 500)));
    }
  }

  /** How long a request waits for the actor's host to answer. */
  get #timeoutMs(): number {
    return this.#options.controlTimeoutMs ?? 5000;
  }

  /** The cautious probe: whether a process may host the actor; it answered, or stayed silent (one too busy to answer counts). */
  async hostedOrSilent(runId: RunId, path: AgentPath): Promise<boolean> {
    return (await this.#probe(runId, path, this.#timeoutMs)) !== 'nobody';
  }

  /**
   * The quick probe: whether a process answers for the actor within `timeoutMs`; silence counts as none (a host
   * whose machine died keeps its subscription until nats-server notices, minutes later).
   */
  async answers(runId: RunId, path: AgentPath, timeoutMs: number): Promise<boolean> {
    return (await this.#probe(runId, path, timeoutMs)) === 'answered';
  }

  /** Probes the actor: asks with an empty request whether a process hosts it. */
  async #probe(runId: RunId, path: AgentPath, timeoutMs: number): Promise<ProbeAnswer> {
    try {
      return (await this.#request(runId, path, Empty, timeoutMs)) === undefined ? 'nobody' : 'answered';
    } catch {
      return 'silent';
    }
  }

  /**
   * Listens on the actor's control subject. Until {@link ControlListener.attach}, whether a
   * process hosts the actor is answered yes at once (this one is settling its claim on it), and
   * commands wait. Closing drains the subscription: nats-server may have routed a request here
   * before it learnt of the unsubscription, and that request is answered `moved`, not dropped
   * (its sender would time out).
   */
  listen(runId: RunId, path: AgentPath): ControlListener {
    const { nc, names } = this.#options.resources;
    let apply: ((command: ControlCommand) => void) | undefined;
    let closed = false;
    const waiting: Msg[] = [];
    const subscription = nc.subscribe(names.controlSubject(runId, path), {
      callback: (error, msg) => {
        if (error !== null) return;
        if (closed) msg.respond(MOVED);
        else if (apply === undefined && msg.data.length > 0) waiting.push(msg);
        else this.#answer(msg, apply ?? (() => undefined));
      },
    });
    return {
      attach: (given) => {
        apply = given;
        for (const msg of waiting.splice(0)) this.#answer(msg, given);
      },
      close: () => {
        if (closed) return;
        closed = true;
        // A closed connection has no subscription left to drain, and nobody to answer.
        subscription.drain().catch(() => undefined);
        if (nc.isClosed()) waiting.length = 0;
        for (const msg of waiting.splice(0)) msg.respond(MOVED);
      },
    };
  }

  /** Answers `msg`, a request on the control subject of an actor hosted here, by applying its command with `apply`. */
  #answer(msg: Msg, apply: (command: ControlCommand) => void): void {
    let answer: ControlReply = { ok: true };
    if (msg.data.length > 0) {
      try {
        apply(msg.json<ControlCommand>());
      } catch (failure) {
        answer = {
          error:
            failure instanceof TroupeError ? { code: failure.code, message: failure.message } : { code: NatsErrorCode.ControlFailed, message: String(failure) },
        };
      }
    }
    msg.respond(JSON.stringify(answer));
  }

  /** The host's answer, or undefined when no process hosts the actor (none subscribes, or the one that did let it go). */
  async #request(runId: RunId, path: AgentPath, data: string | Uint8Array, timeoutMs: number): Promise<ControlReply | undefined> {
    const { nc, names } = this.#options.resources;
    try {
      const answer = (await nc.request(names.controlSubject(runId, path), data, { timeout: timeoutMs })).json<ControlReply>();
      return answer.moved === true ? undefined : answer;
    } catch (error) {
      if (isNoResponders(error)) return undefined;
      throw error;
    }
  }
}

/**
 * Whether a request failed for want of a subscriber. nats.js's `RequestOne.resolver` (core/src/request.ts)
 * wraps the `NoRespondersError` in the request's `RequestError`, or in a new one with it as `cause`
 * when async traces are off, so the cause is looked at too.
 */
function isNoResponders(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as Error & { cause?: unknown }).cause;
  return error.name === 'NoRespondersError' || (cause instanceof Error && cause.name === 'NoRespondersError') || /no responders/i.test(error.message);
}
