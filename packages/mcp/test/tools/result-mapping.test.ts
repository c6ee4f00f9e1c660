/**
 * Proves how MCP tool results become core tool results: text and images as they are, embedded
 * text resources as text headed by their URI, embedded image blobs as images, other blobs, audio
 * and resource links described in a line, structuredContent as JSON text only when no text came
 * (and always in details), an empty result made explicit, and isError kept.
 */
import { describe, expect, it } from 'vitest';
import { mapCallToolResult } from '../../src/tools/result-mapping.js';

describe('mapCallToolResult', () => {
  it('maps every content block type', () => {
    const result = mapCallToolResult(
      {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'image', data: 'aGk=', mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
          { type: 'resource', resource: { uri: 'mem://t', mimeType: 'text/plain', text: 'inside' } },
          { type: 'resource', resource: { uri: 'mem://i', mimeType: 'image/gif', blob: 'R0lG' } },
          { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAAAA==' } },
        ],
      },
      'srv',
      'tool',
    );
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'aGk=', mimeType: 'image/png' },
        { type: 'text', text: '[audio (audio/wav), 3 bytes, not shown]' },
        { type: 'text', text: '[resource link] a.txt: file:///a.txt (text/plain)' },
        { type: 'text', text: '[resource mem://t (text/plain)]\ninside' },
        { type: 'text', text: '[resource mem://i (image/gif)]' },
        { type: 'image', data: 'R0lG', mimeType: 'image/gif' },
        { type: 'text', text: '[resource mem://b: 4 bytes of binary data, not shown]' },
      ],
      details: { server: 'srv', tool: 'tool' },
    });
  });

  it('shows structured content as JSON only when there is no text, and keeps it in details', () => {
    expect(mapCallToolResult({ content: [], structuredContent: { a: 1 } }, 's', 't')).toEqual({
      content: [{ type: 'text', text: '{\n  "a": 1\n}' }],
      details: { server: 's', tool: 't', structuredContent: { a: 1 } },
    });
    expect(mapCallToolResult({ content: [{ type: 'text', text: 'a is 1' }], structuredContent: { a: 1 } }, 's', 't').content).toEqual([
      { type: 'text', text: 'a is 1' },
    ]);
  });

  it('keeps isError and never returns empty content', () => {
    expect(mapCallToolResult({ content: [{ type: 'text', text: 'bad' }], isError: true }, 's', 't')).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'bad' }],
    });
    expect(mapCallToolResult({ content: [] }, 's', 't').content).toEqual([{ type: 'text', text: '(no content)' }]);
  });
});
