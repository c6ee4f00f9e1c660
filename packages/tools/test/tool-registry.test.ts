/**
 * Proves a tool registry is an independent instance that serves the built-in demo tools by name,
 * passes shared options to the factories, creates a fresh tool per call, and refuses unknown
 * names with a typed error that lists what is available.
 */
import { TroupeError, type Tool } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createToolRegistry } from '../src/tool-registry.js';
import { ToolErrorCode, UnknownToolError } from '../src/unknown-tool-error.js';
import { testToolContext } from './tool-context.js';

describe('createToolRegistry', () => {
  it('serves the built-in demo tools', () => {
    const registry = createToolRegistry();
    expect(registry.names()).toEqual(['clock', 'echo']);
    expect(registry.has('clock')).toBe(true);
    expect(registry.has('bash')).toBe(false);
    expect(registry.create('echo').name).toBe('echo');
  });

  it('passes options to the factory', async () => {
    const clock = createToolRegistry().create('clock', { now: () => 0 });
    expect((await clock.execute({}, testToolContext())).content).toBe('1970-01-01T00:00:00.000Z');
  });

  it('creates a new tool on every call', () => {
    const registry = createToolRegistry();
    expect(registry.create('clock')).not.toBe(registry.create('clock'));
  });

  it('throws UnknownToolError listing the available names', () => {
    const registry = createToolRegistry();
    let caught: unknown;
    try {
      registry.create('clok');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UnknownToolError);
    expect(caught).toBeInstanceOf(TroupeError);
    const error = caught as UnknownToolError;
    expect(error.code).toBe(ToolErrorCode.UnknownTool);
    expect(error.message).toBe('unknown tool "clok": available tools: clock, echo');
    expect(error.toJSON()).toEqual({ code: 'unknown_tool', message: error.message, data: { name: 'clok', available: ['clock', 'echo'] } });
  });

  it('serves custom factories, and instances do not share state', () => {
    const shout: Tool = { name: 'shout', description: 'upper-cases', parameters: { type: 'object' }, execute: () => ({ content: 'HI' }) };
    const custom = createToolRegistry({ factories: [{ name: 'shout', description: 'upper-cases', create: () => shout }] });
    expect(custom.names()).toEqual(['shout']);
    expect(createToolRegistry().has('shout')).toBe(false);
    expect(() => custom.create('clock')).toThrow('unknown tool "clock": available tools: shout');
  });

  it('rejects two factories with the same name', () => {
    const factory = { name: 'x', description: 'x', create: (): Tool => ({ name: 'x', description: 'x', parameters: {}, execute: () => ({ content: '' }) }) };
    expect(() => createToolRegistry({ factories: [factory, factory] })).toThrow(expect.objectContaining({ code: ToolErrorCode.DuplicateTool }));
  });
});
