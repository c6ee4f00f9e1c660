/**
 * Proves the logger writes JSON lines at the chosen level to the given destination and never
 * lets secret-looking values (apiKey, authorization, token, password…) through, at the top level
 * or nested.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, isLogLevel } from '../src/logger.js';

function capture(): { lines: () => Record<string, unknown>[]; destination: { write(line: string): void } } {
  const chunks: string[] = [];
  return {
    destination: { write: (line: string) => void chunks.push(line) },
    lines: () => chunks.join('').trim().split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('redacts secrets at any of the first levels of nesting', () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out.destination });
    logger.info(
      {
        apiKey: 'sk-top',
        provider: { name: 'openai', apiKey: 'sk-nested', headers: { authorization: 'Bearer abc', Authorization: 'Bearer def' } },
        user: { password: 'hunter2', token: 't0k3n' },
        model: 'gpt-4.1-mini',
      },
      'calling the model',
    );
    const [line] = out.lines();
    expect(line).toMatchObject({
      msg: 'calling the model',
      apiKey: '[redacted]',
      provider: { name: 'openai', apiKey: '[redacted]', headers: { authorization: '[redacted]', Authorization: '[redacted]' } },
      user: { password: '[redacted]', token: '[redacted]' },
      model: 'gpt-4.1-mini',
    });
    expect(JSON.stringify(line)).not.toMatch(/sk-top|sk-nested|Bearer|hunter2|t0k3n/);
  });

  it('drops lines below the level', () => {
    const out = capture();
    const logger = createLogger({ level: 'warn', destination: out.destination });
    logger.info('quiet');
    logger.warn('loud');
    expect(out.lines().map((line) => line['msg'])).toEqual(['loud']);
  });

  it('adds base fields', () => {
    const out = capture();
    createLogger({ destination: out.destination, base: { component: 'cli' } }).info('hello');
    expect(out.lines()[0]).toMatchObject({ component: 'cli', msg: 'hello', level: 30 });
  });

  it('recognises level names', () => {
    expect(isLogLevel('debug')).toBe(true);
    expect(isLogLevel('silent')).toBe(true);
    expect(isLogLevel('verbose')).toBe(false);
  });
});
