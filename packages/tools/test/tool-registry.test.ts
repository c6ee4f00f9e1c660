/**
 * Proves a tool registry is an independent instance that serves the portable built-in tools by
 * name (and, from the node entry, the Node tools too), passes shared options to the factories,
 * exposes each factory's settings, creates a fresh tool per call where the tool reads its options
 * (one shared frozen instance for the stateless built-ins), and refuses unknown names and
 * unknown settings with typed errors that list what is available.
 */
import { TroupeError, type Tool } from '@troupe/core';
import { describe, expect, it } from 'vitest';
import { createNodeToolRegistry } from '../src/node/node-tools.js';
import { createToolRegistry } from '../src/tool-registry.js';
import { InvalidToolSettingsError } from '../src/tool-settings.js';
import { ToolErrorCode } from '../src/tool-error-code.js';
import { UnknownToolError } from '../src/unknown-tool-error.js';
import { testToolContext } from './tool-context.js';

describe('createToolRegistry', () => {
  it('serves the portable built-in tools', () => {
    const registry = createToolRegistry();
    expect(registry.names()).toEqual(['ask_user', 'clock', 'echo', 'send_update', 'task_complete']);
    expect(registry.has('clock')).toBe(true);
    expect(registry.has('bash')).toBe(false);
    expect(registry.create('echo').name).toBe('echo');
  });

  it('passes options to the factory', async () => {
    const clock = createToolRegistry().create('clock', { now: () => 0 });
    expect((await clock.execute({}, testToolContext())).content).toBe('1970-01-01T00:00:00.000Z');
  });

  it('creates a new tool on every call for a tool that reads its options', () => {
    const registry = createToolRegistry();
    expect(registry.create('clock')).not.toBe(registry.create('clock'));
  });

  it('shares one frozen instance of each stateless built-in, which no holder can change', () => {
    const registry = createToolRegistry();
    for (const name of ['ask_user', 'task_complete', 'send_update', 'echo']) {
      const tool = registry.create(name);
      expect(registry.create(name)).toBe(tool);
      expect(Object.isFrozen(tool)).toBe(true);
      expect(Object.isFrozen(tool.parameters)).toBe(true);
      expect(() => Object.assign(tool, { description: 'changed' })).toThrow(TypeError);
    }
    // Another registry has its own instances.
    expect(createToolRegistry().create('ask_user')).not.toBe(registry.create('ask_user'));
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
    expect(error.message).toBe('unknown tool "clok": available tools: ask_user, clock, echo, send_update, task_complete');
    expect(error.toJSON()).toEqual({
      code: 'unknown_tool',
      message: error.message,
      data: { name: 'clok', available: ['ask_user', 'clock', 'echo', 'send_update', 'task_complete'] },
    });
  });

  it('serves custom factories, and instances do not share state', () => {
    const shout: Tool = { name: 'shout', description: 'upper-cases', parameters: { type: 'object' }, execute: () => ({ content: 'HI' }) };
    const custom = createToolRegistry({ factories: [{ name: 'shout', description: 'upper-cases', create: () => shout }] });
    expect(custom.names()).toEqual(['shout']);
    expect(createToolRegistry().has('shout')).toBe(false);
    expect(() => custom.create('clock')).toThrow('unknown tool "clock": available tools: shout');
  });

  it('serves the Node tools from the node entry, with their settings', () => {
    const registry = createNodeToolRegistry();
    expect(registry.names()).toEqual([
      'ask_user',
      'bash',
      'clock',
      'echo',
      'edit_file',
      'list_files',
      'read_file',
      'search',
      'send_update',
      'task_complete',
      'write_file',
    ]);
    expect(Object.keys(registry.settingsOf('bash') ?? {})).toEqual(['workspace', 'timeoutMs', 'maxOutputBytes', 'deny', 'defaultDeny', 'shell', 'env']);
    expect(registry.settingsOf('clock')).toEqual({});
    expect(registry.settingsOf('nope')).toBeUndefined();
    expect(registry.create('read_file', { workspace: '/tmp' }).readOnly).toBe(true);
    expect(registry.create('bash').readOnly).toBe(false);
  });

  it('refuses settings a factory does not declare', () => {
    expect(() => createToolRegistry().create('clock', { settings: { zone: 'UTC' } })).toThrow(InvalidToolSettingsError);
    expect(() => createNodeToolRegistry().create('bash', { settings: { timeoutMs: 'soon' } })).toThrow(
      'invalid settings for tool "bash": timeoutMs must be a positive integer',
    );
  });

  it('rejects two factories with the same name', () => {
    const factory = { name: 'x', description: 'x', create: (): Tool => ({ name: 'x', description: 'x', parameters: {}, execute: () => ({ content: '' }) }) };
    expect(() => createToolRegistry({ factories: [factory, factory] })).toThrow(expect.objectContaining({ code: ToolErrorCode.DuplicateTool }));
  });
});
