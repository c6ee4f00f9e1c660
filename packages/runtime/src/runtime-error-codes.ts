/**
 * Every error code of `@troupe/runtime`, in one registry (as the MCP SDK keeps its codes in one
 * file): a reader finds here what a `TroupeError` of the runtime may carry. The tables group the
 * codes by the concern that raises them. Only `{ code, message, data }` cross a process boundary
 * (NATS, the control socket), so a value is a stable contract: add codes, never change one.
 */

/** Graph files and graphs (`loadGraphFile`, `createAgentFromConfig`). */
export const GraphErrorCode = {
  /** The file (or a file it refers to) is missing, unreadable or invalid; see `problems`. */
  InvalidGraphFile: 'invalid_graph_file',
  /** A graph was asked for an agent it does not define. */
  UnknownAgent: 'unknown_agent',
  /** An agent of a graph names a model the graph does not define (only for graphs not built by the loader). */
  UnknownModel: 'unknown_model',
  /** A stdio MCP server says `sandbox: required`, and this machine has no sandbox. */
  SandboxUnavailable: 'sandbox_unavailable',
} as const;

/** One of the {@link GraphErrorCode} values. */
export type GraphErrorCode = (typeof GraphErrorCode)[keyof typeof GraphErrorCode];

/** Text files read for a graph (the graph itself, prompt and script files): {@link TextFileError}. */
export const TextFileErrorCode = {
  /** The bytes are not UTF-8 text (a NUL byte, or an invalid sequence): an image, an archive… */
  NotText: 'not_a_text_file',
  /** The file is larger than the reader takes. */
  TooLarge: 'file_too_large',
} as const;

/** One of the {@link TextFileErrorCode} values. */
export type TextFileErrorCode = (typeof TextFileErrorCode)[keyof typeof TextFileErrorCode];

/** Guardrails named in a graph. */
export const GuardrailErrorCode = {
  /** A guardrail name the registry does not know, or a module the graph did not load. */
  Unknown: 'unknown_guardrail',
  /** A guardrail's factory refused its settings. */
  InvalidSettings: 'invalid_guardrail_settings',
} as const;

/** One of the {@link GuardrailErrorCode} values. */
export type GuardrailErrorCode = (typeof GuardrailErrorCode)[keyof typeof GuardrailErrorCode];

/** Pipelines and their templates. */
export const PipelineErrorCode = {
  /** A `{{…}}` template names something that is not there. */
  Template: 'template_error',
  /** A step failed (its cause in `data.cause`). */
  StepFailed: 'step_failed',
  /** A map step's `over` is not a JSON list. */
  NotAList: 'not_a_list',
  /** A step that must answer JSON gave no acceptable JSON after its attempts. */
  InvalidOutput: 'invalid_output',
} as const;

/** One of the {@link PipelineErrorCode} values. */
export type PipelineErrorCode = (typeof PipelineErrorCode)[keyof typeof PipelineErrorCode];

/** Run stores (memory, files, NATS). */
export const RunStoreErrorCode = {
  /** No run with that id in the store. */
  UnknownRun: 'unknown_run',
  /** A stored record, checkpoint or message chunk cannot be read back. */
  Corrupt: 'corrupt_run_store',
  /** Another live process already took up the waiting (or interrupted) run: it answers it and goes on with it. */
  AlreadyAnswered: 'run_already_answered',
} as const;

/** One of the {@link RunStoreErrorCode} values. */
export type RunStoreErrorCode = (typeof RunStoreErrorCode)[keyof typeof RunStoreErrorCode];

/** Transports and the processes that host actors. */
export const TransportErrorCode = {
  /** No actor at that path in that run (or it has ended). */
  UnknownActor: 'unknown_actor',
  /** The transport was closed. */
  Closed: 'transport_closed',
  /** The actor is between hosts (queued or being redelivered): try again. */
  Busy: 'actor_busy',
  /** The run is still hosted by a live process, so it cannot be resumed elsewhere. */
  StillHosted: 'run_still_hosted',
} as const;

/** One of the {@link TransportErrorCode} values. */
export type TransportErrorCode = (typeof TransportErrorCode)[keyof typeof TransportErrorCode];

/** Runs and the answers sent to them. */
export const RunErrorCode = {
  /** No actor of the run waits for that answer or decision. */
  NotWaiting: 'run_not_waiting',
  /** Several actors wait: the answer must name one. */
  Ambiguous: 'ambiguous_target',
  /** The run has already finished. */
  Finished: 'run_finished',
  /** An actor's snapshot says it ended but holds no result. */
  NoResult: 'no_result',
} as const;

/** One of the {@link RunErrorCode} values. */
export type RunErrorCode = (typeof RunErrorCode)[keyof typeof RunErrorCode];

/** The control socket of a run hosted by another process. */
export const RunControlErrorCode = {
  /** The process running the run closed the connection. */
  Closed: 'control_closed',
} as const;

/** One of the {@link RunControlErrorCode} values. */
export type RunControlErrorCode = (typeof RunControlErrorCode)[keyof typeof RunControlErrorCode];

/** Any error code the runtime raises. */
export type RuntimeErrorCode =
  | GraphErrorCode
  | TextFileErrorCode
  | GuardrailErrorCode
  | PipelineErrorCode
  | RunStoreErrorCode
  | TransportErrorCode
  | RunErrorCode
  | RunControlErrorCode;
