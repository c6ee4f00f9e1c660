/**
 * How a thinking level becomes an effort a model takes (issue 14 §5, `xhigh`): the level itself
 * where the model has it, else the nearest one below (`xhigh` → `high`), `minimal` as `low` where
 * the model has no `minimal`; OpenAI-compatible servers the catalog does not know get only
 * `low`, `medium` or `high`.
 */
import { describe, expect, it } from 'vitest';
import { nearestEffort, openAIEffort } from '../../src/shared/thinking.js';

describe('thinking efforts', () => {
  it('takes the level where the model has it, else the nearest below', () => {
    expect(nearestEffort('xhigh', ['low', 'medium', 'high', 'xhigh', 'max'])).toBe('xhigh');
    expect(nearestEffort('xhigh', ['low', 'medium', 'high', 'max'])).toBe('high');
    expect(nearestEffort('medium', ['low', 'high'])).toBe('low');
    expect(nearestEffort('minimal', ['none', 'minimal', 'low'])).toBe('minimal');
    expect(nearestEffort('minimal', ['none', 'low', 'high'])).toBe('low');
    expect(nearestEffort('low', ['high'])).toBe('high');
  });

  it('maps OpenAI levels for catalog models and unknown servers', () => {
    const gpt = { kind: 'effort', efforts: ['none', 'low', 'medium', 'high'] } as const;
    expect(openAIEffort('xhigh', gpt)).toBe('high');
    expect(openAIEffort('off', gpt)).toBe('none');
    expect(openAIEffort('xhigh', undefined)).toBe('high');
    expect(openAIEffort('minimal', undefined)).toBe('low');
    expect(openAIEffort('off', undefined)).toBeUndefined();
    expect(openAIEffort('xhigh', { kind: 'none' })).toBeUndefined();
  });
});
