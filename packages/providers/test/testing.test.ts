/**
 * Proves the providers package exposes the core's scripted provider (the same function, not a
 * copy) from both its main entry and its `./testing` subpath.
 */
import { createScriptedProvider as fromCore } from '@troupe/core/testing';
import { describe, expect, it } from 'vitest';
import { createScriptedProvider as fromIndex } from '../src/index.js';
import { createScriptedProvider as fromTesting } from '../src/testing.js';

describe('scripted provider re-export', () => {
  it('is the core implementation', () => {
    expect(fromTesting).toBe(fromCore);
    expect(fromIndex).toBe(fromCore);
  });
});
