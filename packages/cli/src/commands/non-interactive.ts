import type { Agent, AgentEvent } from '@troupe/core';
import type { Writer } from '../cli-io.js';

type Request = Extract<AgentEvent, { type: 'permission_request' | 'question' }>;

/**
 * Answers what an agent waits for when nobody can be asked (the CLI has no interactive prompt
 * yet): a permission request is denied with `deny_interrupt`, which ends the run as
 * `interrupted`; a question aborts the run. Each is explained on `err`. Feed it every event.
 */
export function nonInteractiveAnswerer(agent: Agent, err: Writer): (event: AgentEvent) => void {
  let waiting = false;
  let request: Request | undefined;
  const answer = (pending: Request): void => {
    if (pending.type === 'permission_request') {
      err(`troupe: the agent asks to run the tool "${pending.toolName}"; interactive approval is not supported yet, so it is denied\n`);
      agent.approve(pending.toolCallId, 'deny_interrupt');
    } else {
      err(`troupe: the agent asks "${pending.question}"; answering questions is not supported yet, so the run is aborted\n`);
      agent.abort();
    }
  };
  return (event) => {
    if (event.type === 'state') waiting = event.state === 'waiting_user';
    else if (event.type === 'permission_request' || event.type === 'question') request = event;
    else return;
    // The request and the state change may come in either order; answer once both are in, and
    // only after the machine has settled (not from inside its transition).
    if (!waiting || request === undefined) return;
    const pending = request;
    request = undefined;
    queueMicrotask(() => answer(pending));
  };
}
