/** The W3C Trace Context codec: a span context survives the round trip; anything malformed names no parent. */
import { TraceFlags, createTraceState, type SpanContext } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { carrierOf, spanContextOf } from '../src/index.js';

const context: SpanContext = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

describe('trace context', () => {
  it('writes the traceparent header, and tracestate when there is one', () => {
    expect(carrierOf(context)).toEqual({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' });
    expect(carrierOf({ ...context, traceFlags: TraceFlags.NONE, traceState: createTraceState('vendor=a,other=b') })).toEqual({
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
      tracestate: 'vendor=a,other=b',
    });
  });

  it('reads back what it wrote, as a remote parent', () => {
    const read = spanContextOf({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'vendor=a' });
    expect(read).toMatchObject({ ...context, isRemote: true });
    expect(read?.traceState?.get('vendor')).toBe('a');
  });

  it('names no parent for an invalid context or a malformed header', () => {
    expect(carrierOf({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 })).toBeUndefined();
    for (const traceparent of [
      '',
      'garbage',
      '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
      '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01',
    ]) {
      expect(spanContextOf({ traceparent })).toBeUndefined();
    }
    expect(spanContextOf(undefined)).toBeUndefined();
    expect(spanContextOf({})).toBeUndefined();
  });
});
