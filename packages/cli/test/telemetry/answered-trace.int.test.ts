/**
 * A run that waits for an approval and is answered later, from another process, stays one trace:
 * `troupe run` (exit 3, waiting) exports the spans it has, and `troupe approve` — run with
 * `--otel` — exports the rest of the run under the same trace id, including the approved tool
 * call and the run's end. Both export to a local OTLP/JSON receiver in this test.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe } from '../spawn-troupe.js';
import { startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

describe('a waiting run answered later', { timeout: 60_000 }, () => {
  it('goes on in the trace it started in', async () => {
    const runs = mkdtempSync(join(tmpdir(), 'troupe-otel-answer-'));
    const started = await spawnTroupe(['run', 'asks.yaml', '--input', 'echo ping', '--runs-dir', runs], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'otel-asker' },
    });
    expect(started.code).toBe(3);
    const runId = /troupe approve (run_\w+) /.exec(started.stderr)?.[1];
    expect(runId).toBeDefined();
    const first = receiver.spans.filter((span) => span.resource['service.name'] === 'otel-asker');
    expect(first.length).toBeGreaterThan(0);
    const traceIds = new Set(first.map((span) => span.traceId));
    expect(traceIds.size).toBe(1);

    const approved = await spawnTroupe(['approve', runId!, 'call_1_1', 'allow_once', '--runs-dir', runs, '--otel', receiver.url], {
      env: { OTEL_SERVICE_NAME: 'otel-approver' },
    });
    expect(approved.stdout).toBe('Approved and echoed: ping\n');
    expect(approved.code).toBe(0);
    const later = receiver.spans.filter((span) => span.resource['service.name'] === 'otel-approver');
    expect(later.map((span) => span.name)).toContain('execute_tool echo');
    expect(new Set(later.map((span) => span.traceId))).toEqual(traceIds);
  });
});
