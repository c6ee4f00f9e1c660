/**
 * The client the official MCP conformance runner drives (`conformance client --command …`): the
 * runner appends the scenario server's URL to the command and names the scenario in
 * MCP_CONFORMANCE_SCENARIO. It is built on this package's adapter only: connect over HTTP, list
 * the tools, call each with arguments made from its schema, accept elicitations (the adapter
 * fills in the schema's defaults), close. Exit 0 when that went through, 1 otherwise.
 */
import { createMcpClient, type McpToolInfo } from '../../src/index.js';

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write('usage: conformance-client <server-url>\n');
  process.exit(2);
}

/** A value for each property of a tool's input schema, by its declared type. */
function argumentsFor(tool: McpToolInfo): Record<string, unknown> {
  const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, { type?: string }>;
  const args: Record<string, unknown> = {};
  let n = 2;
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.type === 'number' || schema.type === 'integer') args[name] = n++;
    else if (schema.type === 'boolean') args[name] = true;
    else if (schema.type === 'string') args[name] = 'troupe';
  }
  return args;
}

const client = createMcpClient(
  'conformance',
  { url },
  {
    clientInfo: { name: 'troupe-conformance-client', version: '0.1.0' },
    elicit: async () => ({ action: 'accept', content: {} }),
  },
);
try {
  const tools = await client.listTools();
  for (const tool of tools) {
    const result = await client.callTool(tool.name, argumentsFor(tool));
    process.stdout.write(`${tool.name}: ${JSON.stringify(result.content)}\n`);
  }
  await client.close();
  process.exit(0);
} catch (error) {
  process.stderr.write(
    `conformance client failed (${process.env['MCP_CONFORMANCE_SCENARIO'] ?? 'no scenario'}): ${error instanceof Error ? error.message : String(error)}\n`,
  );
  await client.close();
  process.exit(1);
}
