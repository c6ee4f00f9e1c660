/** parseAction accepts the five actions with their fields and names what is wrong with anything else. */
import { describe, expect, it } from 'vitest';
import { parseAction } from '../../src/server/parse-action.js';

describe('parseAction', () => {
  it('accepts each action', () => {
    expect(parseAction({ type: 'approve', callId: 'c', decision: 'deny_never', path: 'a/b#1' })).toEqual({
      type: 'approve',
      callId: 'c',
      decision: 'deny_never',
      path: 'a/b#1',
    });
    expect(parseAction({ type: 'reply', answer: 'yes' })).toEqual({ type: 'reply', answer: 'yes' });
    expect(parseAction({ type: 'followUp', message: 'and then?' })).toEqual({ type: 'followUp', message: 'and then?' });
    expect(parseAction({ type: 'abort', path: 'lead/critic#1' })).toEqual({ type: 'abort', path: 'lead/critic#1' });
  });

  it('refuses bad input with bad_request', () => {
    for (const body of [
      null,
      { type: 'nuke' },
      { type: 'approve', callId: 'c', decision: 'maybe' },
      { type: 'steer', message: ' ' },
      { type: 'abort', path: 3 },
    ])
      expect(() => parseAction(body)).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });
});
