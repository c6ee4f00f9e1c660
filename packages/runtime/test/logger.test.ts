/**
 * Proves the logger writes JSON lines at the chosen level to the given destination and never
 * lets secret-looking values (apiKey, authorization, token, password…) through, at the top level
 * or nested; and that the `pretty` format writes one readable line per record (time, level,
 * message, fields; an error's stack under an error), redacted too, coloured only when asked.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, isLogLevel } from '../src/logger.js';

function capture(): { lines: () => Record<string, unknown>[]; destination: { write(line: string): void } } {
  const chunks: string[] = [];
  return {
    destination: { write: (line: string) => void chunks.push(line) },
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
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

  it('writes one readable line per record with format pretty, still redacted', () => {
    const chunks: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void chunks.push(line) },
      format: 'pretty',
      base: { command: 'run' },
    });
    logger.info({ server: 'github', apiKey: 'sk-secret', args: ['a b'] }, 'mcp server started');
    logger.warn('careful');
    expect(chunks).toHaveLength(2);
    expect(chunks[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}mcp server started command=run server=github apiKey=\[redacted\] args=\["a b"\]\n$/);
    expect(chunks[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}careful command=run\n$/);
    expect(chunks.join('')).not.toContain('sk-secret');
    expect(chunks.join('')).not.toContain('\u001b[');
  });

  it('puts the stack of an error logged at error under its line, and colours when asked', () => {
    const chunks: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void chunks.push(line) }, format: 'pretty', colors: true });
    logger.error({ err: new Error('boom') }, 'the run failed');
    logger.warn({ err: new Error('flaky') }, 'retrying');
    const [error, warning] = chunks;
    expect(error).toContain('\u001b[31mERROR\u001b[0m the run failed');
    expect(error).toContain('err=boom');
    expect(error?.split('\n')[1]).toMatch(/^ {4}at /);
    expect(warning?.split('\n')).toHaveLength(2);
    expect(warning).toContain('err=flaky');
  });

  it('recognises level names', () => {
    expect(isLogLevel('debug')).toBe(true);
    expect(isLogLevel('silent')).toBe(true);
    expect(isLogLevel('verbose')).toBe(false);
  });
});
