/** What a person can do on a run: decide a pending call (the four decisions), answer a question, steer or follow up an actor, abort. */
import { useState } from 'preact/hooks';
import { post, runPath } from './api.js';
import { ErrorBanner } from './error-banner.js';
import { short } from './format.js';
import type { RunDetail } from './types.js';

const DECISIONS = [
  ['allow_once', 'Allow once'],
  ['allow_always', 'Always allow'],
  ['deny_interrupt', 'Deny and stop'],
  ['deny_never', 'Never allow'],
] as const;

/** Sends an action; the error it gets (stale, ended…) is shown until the next action. */
function useAction(runId: string, done: () => void): { send: (body: Record<string, unknown>) => Promise<void>; error: unknown; busy: boolean } {
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const send = async (body: Record<string, unknown>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      await post(`${runPath(runId)}/actions`, body);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
      done();
    }
  };
  return { send, error, busy };
}

/** The pending approvals and questions of a run. */
export function WaitingPanel({ detail, done }: { detail: RunDetail; done: () => void }) {
  const { send, error, busy } = useAction(detail.run.id, done);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  if (detail.waiting.length === 0 && error === undefined) return null;
  return (
    <section class="waiting" aria-label="waiting for you">
      <ErrorBanner error={error} />
      {detail.waiting.map(({ path, input }) => (
        <div class="pending" key={`${path}-${input.callId}`} data-call={input.callId}>
          {input.kind === 'permission' ? (
            <>
              <div>
                <strong>{path}</strong> asks to run <code>{input.toolName}</code> <code class="args">{short(input.args, 300)}</code>
              </div>
              <div class="buttons">
                {DECISIONS.map(([decision, label]) => (
                  <button
                    type="button"
                    key={decision}
                    class={decision.startsWith('deny') ? 'danger' : 'primary'}
                    disabled={busy}
                    onClick={() => void send({ type: 'approve', callId: input.callId, decision, path })}
                  >
                    {label}
                  </button>
                ))}
              </div>
            </>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void send({ type: 'reply', answer: answers[path] ?? '', path });
              }}
            >
              <div>
                <strong>{path}</strong> asks: {input.question}
              </div>
              <input aria-label={`answer to ${path}`} value={answers[path] ?? ''} onInput={(e) => setAnswers({ ...answers, [path]: e.currentTarget.value })} />
              <button type="submit" class="primary" disabled={busy || (answers[path] ?? '').trim() === ''}>
                Answer
              </button>
            </form>
          )}
        </div>
      ))}
    </section>
  );
}

/** Steer, follow up or abort the actor at `path` (the entry aborts the whole run). */
export function ActorActions({ runId, path, entry, ended, done }: { runId: string; path: string; entry: string; ended: boolean; done: () => void }) {
  const { send, error, busy } = useAction(runId, done);
  const [message, setMessage] = useState('');
  return (
    <div class="actor-actions">
      <ErrorBanner error={error} />
      <input
        aria-label={`message to ${path}`}
        placeholder={`message to ${path}`}
        value={message}
        disabled={ended}
        onInput={(e) => setMessage(e.currentTarget.value)}
      />
      <button
        type="button"
        disabled={busy || ended || message.trim() === ''}
        onClick={() => void send({ type: 'steer', message, path }).then(() => setMessage(''))}
      >
        Steer
      </button>
      <button
        type="button"
        disabled={busy || ended || message.trim() === ''}
        onClick={() => void send({ type: 'followUp', message, path }).then(() => setMessage(''))}
      >
        Follow up
      </button>
      {path !== entry && (
        <button type="button" class="danger" disabled={busy || ended} onClick={() => void send({ type: 'abort', path })}>
          Abort {path}
        </button>
      )}
    </div>
  );
}

/** Aborts the whole run. */
export function AbortRun({ runId, ended, done }: { runId: string; ended: boolean; done: () => void }) {
  const { send, error, busy } = useAction(runId, done);
  return (
    <>
      <button type="button" class="danger" disabled={busy || ended} onClick={() => void send({ type: 'abort' })}>
        Abort run
      </button>
      <ErrorBanner error={error} />
    </>
  );
}
