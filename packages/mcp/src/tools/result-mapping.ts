import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult, UserContent } from '@troupe/core';

/** Details of a mapped result, for logs and UIs. */
export interface McpResultDetails {
  server: string;
  tool: string;
  structuredContent?: Record<string, unknown>;
}

/**
 * Turns an MCP `CallToolResult` into a core tool result: text and image blocks as they are; an
 * embedded text resource as text headed by its URI; an embedded image blob as an image; other
 * blobs, audio and resource links as a line describing them; `structuredContent` as JSON text when
 * the server sent no text, and always in `details`; `isError` kept.
 */
export function mapCallToolResult(result: CallToolResult, server: string, tool: string): ToolResult {
  const content: UserContent[] = [];
  for (const block of result.content) content.push(...mapBlock(block));
  const details: McpResultDetails = { server, tool };
  if (result.structuredContent !== undefined) {
    details.structuredContent = result.structuredContent;
    if (!content.some((part) => part.type === 'text')) content.push({ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) });
  }
  if (content.length === 0) content.push({ type: 'text', text: '(no content)' });
  return result.isError === true ? { content, isError: true, details } : { content, details };
}

function mapBlock(block: ContentBlock): UserContent[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image':
      return [{ type: 'image', data: block.data, mimeType: block.mimeType }];
    case 'audio':
      return [{ type: 'text', text: `[audio (${block.mimeType}), ${base64Bytes(block.data)} bytes, not shown]` }];
    case 'resource_link': {
      const about = [block.mimeType, block.description].filter((part) => part !== undefined && part !== '').join('; ');
      return [{ type: 'text', text: `[resource link] ${block.name}: ${block.uri}${about === '' ? '' : ` (${about})`}` }];
    }
    case 'resource': {
      const resource = block.resource;
      const mime = resource.mimeType === undefined ? '' : ` (${resource.mimeType})`;
      if ('text' in resource) return [{ type: 'text', text: `[resource ${resource.uri}${mime}]\n${resource.text}` }];
      if (resource.mimeType?.startsWith('image/') === true) {
        return [
          { type: 'text', text: `[resource ${resource.uri}${mime}]` },
          { type: 'image', data: resource.blob, mimeType: resource.mimeType },
        ];
      }
      return [{ type: 'text', text: `[resource ${resource.uri}${mime}: ${base64Bytes(resource.blob)} bytes of binary data, not shown]` }];
    }
    default:
      return [{ type: 'text', text: `[unsupported content type "${(block as { type: string }).type}"]` }];
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
