import { NO_HOOKS, type AgentHooks } from './agent-hooks.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentPort } from './agent-port.js';
import { changedSettings, modelSettingsOf, providerRequest, type AgentChanges, type ModelSettings } from './agent-settings.js';
import type { Clock } from './clock.js';
import { compactionSettings } from './compaction/compaction-cascade.js';
import { ErrorCode } from './errors.js';
import { GuardEffect } from './guard-effect.js';
import type { ContextView } from './compaction/context-view.js';
import type { EffectCommand } from './machine-types.js';
import { ModelEffect } from './model-effect.js';
import { DEFAULT_PERMISSIONS } from './permissions.js';
import { exponentialBackoff } from './retry-strategy.js';
import { sharedSchemaValidator } from './schema-validator.js';
import type { StreamingMessage } from './streaming-message.js';
import { parseJsonOutput } from './structured-output.js';
import { ToolEffect } from './tool-effect.js';
import type { Message, ToolResultMessage } from './messages.js';
import { ToolSet } from './tool-set.js';
import { NO_PATH, NO_RUN, NO_TS } from './unstamped-event.js';

/** The retry strategy of agents without one, shared (it keeps no state). */
const DEFAULT_RETRY = exponentialBackoff();

/**
 * The long-lived effects an agent's statechart commands, built from the agent's options: the
 * model effect (model calls, compaction), the tool effect (tool batches) and the guard effect
 * (input guardrails), with the tools and the model settings (`configure` changes them between
 * runs).
 */
export class AgentEffects {
  readonly #options: AgentOptions;
  readonly #model: ModelEffect;
  readonly #tools: ToolEffect;
  readonly #toolSet: ToolSet;
  readonly #guard: GuardEffect;
  #settings: ModelSettings;

  /** Whether the agent compacts its context (it has compaction steps). */
  readonly compacts: boolean;

  constructor(options: AgentOptions, port: AgentPort, clock: Clock) {
    this.#options = options;
    const validator = options.validator ?? sharedSchemaValidator();
    const hooks: AgentHooks = options.hooks ?? NO_HOOKS;
    const tools = new ToolSet(options.tools ?? [], validator, (message) =>
      port.emit({ type: 'error', error: { code: ErrorCode.InvalidTool, message }, runId: NO_RUN, agentPath: NO_PATH, seq: 0, ts: NO_TS }),
    );
    this.#toolSet = tools;
    const compaction = compactionSettings(options.compaction);
    this.compacts = compaction.strategies.length > 0;
    this.#guard = new GuardEffect({ guardrails: options.guardrails ?? [], port });
    this.#settings = modelSettingsOf(options);
    const schema = options.outputSchema;
    this.#model = new ModelEffect({
      provider: options.provider,
      request: providerRequest(this.#settings, schema),
      ...(schema === undefined ? {} : { checkOutput: (text: string) => parseJsonOutput(text, schema, validator) }),
      tools,
      retry: options.retry ?? DEFAULT_RETRY,
      compaction,
      hooks,
      ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
      clock,
      port,
    });
    this.#tools = new ToolEffect({
      tools,
      validator,
      hooks,
      permissions: options.permissions ?? DEFAULT_PERMISSIONS,
      execution: options.toolExecution ?? { mode: 'parallel' },
      checkpointed: options.checkpointed,
      port,
    });
  }

  /** How the model is called now. */
  get settings(): Readonly<ModelSettings> {
    return this.#settings;
  }

  /** The reply being streamed, if one is. */
  get streaming(): StreamingMessage | undefined {
    return this.#model.streaming;
  }

  /** Results of the current tool batch that finished but were not reported yet (for an abort or a limit). */
  settled(): ToolResultMessage[] {
    return this.#tools.settled();
  }

  /** Applies `changes` to the model settings and tools (a bad tool list throws, changing nothing). */
  configure(changes: AgentChanges): void {
    const settings = changedSettings(this.#settings, changes);
    if (changes.tools !== undefined) this.#toolSet.replace(changes.tools);
    this.#apply(settings);
  }

  /** Back to the options' model settings and tools. */
  reset(): void {
    this.#toolSet.replace(this.#options.tools ?? []);
    this.#apply(modelSettingsOf(this.#options));
  }

  /** Carries out one of the machine's commands; `history` is the agent's history now, `view` its compacted view (if any). */
  carryOut(command: EffectCommand, history: readonly Message[], view: ContextView | undefined): void {
    switch (command.type) {
      case 'cmd.model':
        this.#model.call(command.request, command.attempt, { history, view }, command.compacted, command.delayMs);
        break;
      case 'cmd.compact':
        this.#model.compact(command.request, command.reason, { history, view });
        break;
      case 'cmd.guard':
        this.#guard.run(command.request, command.messages);
        break;
      case 'cmd.tools':
        this.#tools.run(command);
        break;
      case 'cmd.steer':
        this.#tools.steer(command.request);
        break;
      case 'cmd.cancel':
        this.#model.cancel(command.request);
        this.#tools.cancel(command.request, command.reason);
        this.#guard.cancel(command.request);
        break;
    }
  }

  #apply(settings: ModelSettings): void {
    this.#settings = settings;
    this.#model.reconfigure(settings.provider, providerRequest(settings, this.#options.outputSchema));
  }
}
