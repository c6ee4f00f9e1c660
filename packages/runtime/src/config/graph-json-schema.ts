import { defaultToolRegistry } from '../default-tools.js';
import { defaultGuardrailRegistry } from '../guardrails/guardrail-registry.js';
import { readGraphFields } from './graph-schema.js';
import { SchemaScope, type JsonSchema, type SchemaScopeOptions } from './schema-scope.js';

/** The `$id` of the published graph schema (`@troupe/runtime/graph.schema.json`). */
export const GRAPH_SCHEMA_ID = 'https://troupe.dev/schema/graph.schema.json';

/**
 * The JSON Schema of graph files, built from the loader's own readers, so the two cannot drift:
 * what `packages/runtime/schema/graph.schema.json` holds (the package's build writes it with
 * `scripts/write-graph-schema.mjs`; a test fails when the committed file is stale). Tool settings and guardrails are spelled out for
 * `tools` and `guardrails` (default: the loader's defaults). The schema accepts every file the
 * loader accepts; what it cannot say (a reference to an undefined model, `script` on a vendor
 * model, a step reading a later step) only the loader reports.
 */
export function graphJsonSchema(options: SchemaScopeOptions = {}): JsonSchema {
  const scope = new SchemaScope({ tools: options.tools ?? defaultToolRegistry(), guardrails: options.guardrails ?? defaultGuardrailRegistry() });
  const body = readGraphFields.schema(scope);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: GRAPH_SCHEMA_ID,
    title: 'Troupe graph file',
    description: 'Models, MCP servers, agents and pipelines that troupe runs (version 1). Strings may use ${ENV} and ${ENV:-default}.',
    ...body,
    definitions: scope.definitions(),
  };
}

/** The text of the published schema file: {@link graphJsonSchema} as indented JSON with a final newline. */
export function graphJsonSchemaText(options: SchemaScopeOptions = {}): string {
  return `${JSON.stringify(graphJsonSchema(options), null, 2)}\n`;
}
