export { agentConfigOf, agentOptionsFromConfig, createAgentFromConfig } from './agent-from-config.js';
export { GraphErrorCode, GraphFileError, formatGraphProblem, formatGraphProblems } from './config/graph-file-error.js';
export { SUPPORTED_GRAPH_VERSIONS } from './config/graph-config.js';
export { interpolateEnv } from './config/env-interpolation.js';
export { loadGraphFile, parseGraph } from './config/load-graph.js';
export { createLogger, isLogLevel, LOG_LEVELS, REDACTED_KEYS } from './logger.js';
export { UnknownAgentError } from './config/unknown-agent-error.js';

export type { AgentFromConfigOptions } from './agent-from-config.js';
export type { AgentConfig, GraphConfig, GraphVersion, ModelConfig } from './config/graph-config.js';
export type { Env, EnvProblem, InterpolationResult } from './config/env-interpolation.js';
export type { GraphProblem } from './config/graph-file-error.js';
export type { LoadGraphOptions } from './config/load-graph.js';
export type { ReadTextFile } from './config/read-text-file.js';
export type { Logger } from 'pino';
export type { LoggerOptions, LogLevel } from './logger.js';
