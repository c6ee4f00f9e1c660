/**
 * Proves the graph file's tool and MCP sections: `mcpServers` in the `.mcp.json` shape (stdio
 * and HTTP, paths relative to the graph file), agents' `tools` lists mixing built-in names, tool
 * settings and MCP selectors, the agent `workspace`, and every problem with its position:
 * unknown or misspelt settings, values of the wrong kind, bad regular expressions, unknown MCP
 * servers in tools and permissions, malformed selectors, settings on MCP tools, and server
 * definitions that are inconsistent (both or neither of command/url, a type that contradicts
 * them, keys of the other transport, bad URLs, names with dots).
 */
import { describe, expect, it } from 'vitest';
import { formatGraphProblem, GraphFileError } from '../../src/config/graph-file-error.js';
import { parseGraph } from '../../src/config/load-graph.js';

const FILE = '/project/graphs/g.yaml';
const HEAD = ['version: 1', 'models:', '  demo: { model: scripted, script: [{ text: hi }] }'];

async function load(lines: string[], env: Record<string, string> = {}) {
  return parseGraph([...HEAD, ...lines].join('\n'), { file: FILE, env });
}

async function problems(lines: string[]): Promise<string[]> {
  try {
    await load(lines);
  } catch (error) {
    if (error instanceof GraphFileError) return error.problems.map(formatGraphProblem);
    throw error;
  }
  throw new Error('loaded without problems');
}

describe('tools and MCP servers in graph files', () => {
  it('loads servers, selectors, tool settings and the workspace', async () => {
    const graph = await load(
      [
        'mcpServers:',
        '  github:',
        '    command: npx',
        '    args: [-y, "@modelcontextprotocol/server-github"]',
        '    env: { GITHUB_TOKEN: "${TOKEN}" }',
        '    cwd: ../servers',
        '  remote:',
        '    type: http',
        '    url: https://mcp.example.com/mcp',
        '    headers: { X-Team: troupe }',
        '    bearerToken: "${TOKEN}"',
        '    toolPrefix: r_',
        '    timeoutMs: 5000',
        '    trustAnnotations: true',
        'agents:',
        '  coder:',
        '    model: demo',
        '    workspace: ../src',
        '    tools:',
        '      - read_file',
        '      - bash: { timeoutMs: 5000, deny: ["git push"], workspace: /tmp/w }',
        '      - github.*',
        '      - remote.search_docs',
        '    permissions: { mode: smart, tools: { github.create_issue: ask, remote.*: allow, github__list_issues: allow } }',
      ],
      { TOKEN: 't0k' },
    );
    expect(graph.mcpServers).toEqual({
      github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: { GITHUB_TOKEN: 't0k' }, cwd: '/project/servers' },
      remote: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { 'X-Team': 'troupe' },
        bearerToken: 't0k',
        toolPrefix: 'r_',
        timeoutMs: 5000,
        trustAnnotations: true,
      },
    });
    expect(graph.agents['coder']).toMatchObject({
      tools: ['read_file', 'bash'],
      mcpTools: ['github.*', 'remote.search_docs'],
      toolSettings: { bash: { timeoutMs: 5000, deny: ['git push'], workspace: '/tmp/w' } },
      workspace: '/project/src',
    });
  });

  it('reports bad tool lists and settings with positions', async () => {
    expect(
      await problems([
        'mcpServers:',
        '  github: { command: gh-mcp }',
        'agents:',
        '  a:',
        '    model: demo',
        '    tools:',
        '      - bash: { timout: 5, deny: ["(unclosed"], defaultDeny: "no" }',
        '      - githb.*',
        '      - github.',
        '      - github.*: { timeoutMs: 5 }',
        '      - read_file',
        '      - read_file',
        '      - { a: 1, b: 2 }',
        '      - 42',
        '    permissions: { mode: ask, tools: { gihub.x: deny, nope__x: allow } }',
      ]),
    ).toEqual([
      `${FILE}:10:17: unknown setting "timout" for tool bash in agents.a.tools[0].bash (bash takes "workspace", "timeoutMs", "maxOutputBytes", "deny", "defaultDeny", "shell", "env")`,
      `${FILE}:10:35: agents.a.tools[0].bash.deny[0]: invalid regular expression "(unclosed": Invalid regular expression: /(unclosed/: Unterminated group`,
      `${FILE}:10:62: agents.a.tools[0].bash.defaultDeny must be true or false, got string "no"`,
      `${FILE}:11:9: unknown MCP server "githb" in agents.a.tools[1] (did you mean "github"?)`,
      `${FILE}:12:9: "github." in agents.a.tools[2] is not a tool name or an MCP selector (write a built-in tool name, server.tool or server.*)`,
      `${FILE}:13:9: MCP tools take no settings in agents.a.tools[3] (set timeouts and the like on the server under "mcpServers")`,
      `${FILE}:15:9: duplicate tool "read_file" in agents.a.tools`,
      `${FILE}:16:9: agents.a.tools[6] must name one tool with its settings, as "- bash: { timeoutMs: 5000 }"`,
      `${FILE}:17:9: agents.a.tools[7] must be a tool name or a mapping of one tool name to its settings, got number 42`,
      `${FILE}:18:40: unknown MCP server "gihub" in agents.a.permissions.tools.gihub.x (did you mean "github"?)`,
      `${FILE}:18:55: unknown MCP server "nope" in agents.a.permissions.tools.nope__x (available MCP servers: github)`,
    ]);
  });

  it('reports inconsistent server definitions with positions', async () => {
    expect(
      await problems([
        'mcpServers:',
        '  both: { command: x, url: "http://h/mcp" }',
        '  neither: { args: [a] }',
        '  mixed: { type: sse, command: x }',
        '  web: { url: "http://h/mcp", env: { A: b } }',
        '  bad-url: { url: "ftp://h" }',
        '  dotted.name: { command: x }',
        '  prefix: { command: x, toolPrefix: "a.b" }',
        'agents:',
        '  a: { model: demo, tools: [mcp.*] }',
      ]),
    ).toEqual([
      `${FILE}:5:3: mcpServers.both has both "command" and "url"`,
      `${FILE}:6:3: mcpServers.neither needs "command" (a stdio server) or "url" (an HTTP server)`,
      `${FILE}:7:3: mcpServers.mixed has type "sse" but "command" (an HTTP server needs "url")`,
      `${FILE}:8:3: "env" in mcpServers.web only applies to stdio servers`,
      `${FILE}:9:19: mcpServers.bad-url.url must be an http or https URL, got "ftp://h"`,
      `${FILE}:10:3: invalid MCP server name "dotted.name" (use letters, digits, "_" and "-" (tools are selected as server.tool))`,
      `${FILE}:11:37: mcpServers.prefix.toolPrefix may only hold letters, digits, "_" and "-" (model APIs accept no other characters in tool names)`,
      `${FILE}:13:29: unknown MCP server "mcp" in agents.a.tools[0] (available MCP servers: both, neither, mixed, web, bad-url, dotted.name, prefix)`,
    ]);
  });
});
