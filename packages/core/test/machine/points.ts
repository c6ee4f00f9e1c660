/**
 * Named starting points of the transition tables, each reached from a fresh machine by the pure
 * `transition()` alone (so each is a state the chart really gets into). Not a test.
 */
import type { MachineSettings } from '../../src/machine-types.js';
import { after, call, event, fresh, modelDone, modelFailed, prompt, reply, result, toolsAsk, toolsDone, type Snap } from './chart.js';

/** The two calls of the first reply with tools. */
export const TWO_CALLS = reply([call('c1'), call('c2')], 'toolUse');

/** A question suspending call `c2`. */
export const QUESTION = { callId: 'c2', toolName: 'echo', question: 'which one?' };

/** Starting points of a plain agent, or of one with `settings`. */
export function points(settings: Partial<MachineSettings> = {}) {
  const idle = (): Snap => fresh(settings);
  const streaming = (): Snap => after(idle(), prompt());
  const toolExecuting = (): Snap => after(streaming(), modelDone(TWO_CALLS));
  return {
    idle,
    /** The first turn's model call is out. */
    streaming,
    /** Waiting to try the model call again. */
    retrying: (): Snap => after(streaming(), modelFailed('rate_limited', 500)),
    /** Compacting after an overflow. */
    compacting: (): Snap => after(streaming(), modelFailed('overflow')),
    /** The first reply's two calls run. */
    toolExecuting,
    /** Call `c1` waits for the user's permission. */
    permission: (): Snap => after(toolExecuting(), toolsAsk('c1')),
    /** `c1` ran; `c2` asked the user a question. */
    question: (): Snap => after(toolExecuting(), toolsDone([result('c1')], { suspended: [QUESTION] })),
    /** A run ended with a text reply. */
    done: (): Snap => after(streaming(), modelDone(reply([{ type: 'text', text: 'bye' }]))),
    /** A steering message arrived while the tools ran. */
    steered: (): Snap => after(toolExecuting(), event({ type: 'STEER', message: { role: 'user', content: 'stop that', timestamp: 0 } })),
  };
}
