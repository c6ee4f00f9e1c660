/** An actor's conversation from its latest checkpoint: messages, tool calls and results, thinking collapsed. */
import { get, runPath } from './api.js';
import { short } from './format.js';
import type { Message } from './types.js';
import { usePoll } from './use-run-feed.js';

function Part({ part }: { part: Record<string, unknown> }) {
  switch (part.type) {
    case 'text':
      return <div class="text">{String(part.text)}</div>;
    case 'thinking':
      return (
        <details class="thinking">
          <summary>thinking</summary>
          {String(part.thinking)}
        </details>
      );
    case 'toolCall':
      return (
        <div class="call">
          → <code>{String(part.name)}</code> <code class="args">{short(part.arguments, 400)}</code>
        </div>
      );
    default:
      return <div class="text">[{String(part.type)}]</div>;
  }
}

export function Conversation({ runId, path, version }: { runId: string; path: string; version: number }) {
  // Checkpoints are written at turn boundaries: reading them once or twice a second is plenty.
  const messages = usePoll(() => get<{ messages: Message[] }>(`${runPath(runId)}/messages?path=${encodeURIComponent(path)}`), 2000, [runId, path, version > 0]);
  const list = messages.value?.messages ?? [];
  return (
    <section class="conversation" aria-label={`conversation of ${path}`}>
      {list.length === 0 && <p class="empty">No checkpointed messages yet.</p>}
      {list.map((message, index) => {
        const role = (message as { role: string }).role;
        const content = (message as { content?: unknown }).content;
        const parts =
          typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
        return (
          <div key={index} class={`msg ${role}`}>
            <div class="role">{role === 'toolResult' ? `result of ${String((message as { toolName?: string }).toolName)}` : role}</div>
            {parts.map((part, i) => (
              <Part key={i} part={part} />
            ))}
          </div>
        );
      })}
    </section>
  );
}
