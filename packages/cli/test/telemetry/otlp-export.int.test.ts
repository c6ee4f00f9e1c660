/**
 * `troupe run` (the built command, a child process) exports its trace and metrics over OTLP/HTTP
 * JSON to a collector in this test (a node:http server on a random loopback port) when
 * OTEL_EXPORTER_OTLP_ENDPOINT or --otel says where: the run's spans — invoke_workflow, the lead's
 * and the helper's invoke_agent, chat, execute_tool — arrive in one trace with the resource's
 * service.name, the helper's invoke_agent inside the delegation's execute_tool span, and the
 * token usage metric arrives too. A run interrupted with SIGINT or SIGTERM still exports its
 * spans before it exits; a collector that cannot be reached costs one warning, not the run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTroupe, type TroupeExit } from '../spawn-troupe.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

const runsDir = (): string => mkdtempSync(join(tmpdir(), 'troupe-otel-runs-'));

/** The spans the collector got from the process whose resource says `service`. */
const spansOf = (service: string): ReceivedSpan[] => receiver.spans.filter((span) => span.resource['service.name'] === service);

/** Runs `troupe run file --input x` until `text` is on stdout, then sends it `signal`. */
function interrupted(file: string, text: string, signal: NodeJS.Signals, env: Record<string, string>): Promise<TroupeExit & { sent: boolean }> {
  let sent = false;
  return spawnTroupe(['run', file, '--input', 'x', '--runs-dir', runsDir()], {
    env,
    onStdout: (stdout, child) => {
      if (!sent && stdout.includes(text)) {
        sent = true;
        child.kill(signal);
      }
    },
  }).then((exit) => ({ ...exit, sent }));
}

describe('troupe run exporting over OTLP', { timeout: 60_000 }, () => {
  it('sends the run as one trace, with the delegated agent inside the delegation, and its metrics', async () => {
    const result = await spawnTroupe(['run', 'otel-team.yaml', '--input', 'go', '--runs-dir', runsDir()], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'otel-run-test', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test' },
    });
    expect(result.stdout).toBe('Asking the helper.\nDone: Echoed: word\n');
    expect(result.code).toBe(0);
    // The exporter has had its answer before the process exited: everything is here already.
    const spans = spansOf('otel-run-test');
    const names = spans.map((span) => span.name).sort();
    expect(names).toEqual(
      [
        'chat default',
        'chat default',
        'chat default',
        'chat default',
        'execute_tool delegate_to_helper',
        'execute_tool echo',
        'invoke_agent helper',
        'invoke_agent lead',
        'invoke_workflow lead',
      ].sort(),
    );
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    const byName = (name: string): ReceivedSpan => spans.find((span) => span.name === name)!;
    const root = byName('invoke_workflow lead');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.resource['deployment.environment']).toBe('test');
    expect(typeof root.resource['service.version']).toBe('string');
    expect(byName('invoke_agent lead').parentSpanId).toBe(root.spanId);
    expect(byName('execute_tool delegate_to_helper').parentSpanId).toBe(byName('invoke_agent lead').spanId);
    expect(byName('invoke_agent helper').parentSpanId).toBe(byName('execute_tool delegate_to_helper').spanId);
    expect(byName('execute_tool echo').parentSpanId).toBe(byName('invoke_agent helper').spanId);
    expect(byName('execute_tool echo').attributes['gen_ai.tool.name']).toBe('echo');
    // No content without --otel-content.
    expect(spans.some((span) => 'gen_ai.tool.call.arguments' in span.attributes || 'gen_ai.input.messages' in span.attributes)).toBe(false);
    const metrics = receiver.metrics.filter((metric) => metric.resource['service.name'] === 'otel-run-test').map((metric) => metric.name);
    expect(metrics).toContain('gen_ai.client.token.usage');
    expect(metrics).toContain('gen_ai.client.operation.duration');
  });

  it('with --otel and --otel-content, sends to that collector with the message content', async () => {
    const result = await spawnTroupe(['run', 'otel-team.yaml', '--input', 'go', '--runs-dir', runsDir(), '--otel', receiver.url, '--otel-content'], {
      // The flag wins over the environment.
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_SERVICE_NAME: 'otel-flag-test' },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('telemetry:');
    const echo = spansOf('otel-flag-test').find((span) => span.name === 'execute_tool echo');
    expect(echo?.attributes['gen_ai.tool.call.arguments']).toContain('word');
  });

  it('exports the spans of a run interrupted with SIGINT before exiting', async () => {
    const result = await interrupted('slow.yaml', 'Working on it.', 'SIGINT', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'otel-sigint-test',
    });
    expect(result.sent).toBe(true);
    expect(result.code).toBe(130);
    const names = spansOf('otel-sigint-test').map((span) => span.name);
    expect(names).toContain('invoke_workflow waiter');
    expect(names).toContain('invoke_agent waiter');
    expect(names).toContain('execute_tool echo');
    const root = spansOf('otel-sigint-test').find((span) => span.name === 'invoke_workflow waiter');
    expect(root?.attributes['troupe.run.status']).toBe('aborted');
  });

  it('exports the spans of a run stopped with SIGTERM before exiting', async () => {
    const result = await interrupted('slow.yaml', 'Working on it.', 'SIGTERM', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'otel-sigterm-test',
    });
    expect(result.sent).toBe(true);
    expect(result.signal).toBeNull();
    expect(result.code).toBe(130);
    expect(spansOf('otel-sigterm-test').map((span) => span.name)).toContain('invoke_workflow waiter');
  });

  it('logs one warning when the collector cannot be reached, and the run goes on', async () => {
    const gone = await startOtlpReceiver();
    await gone.close();
    const result = await spawnTroupe(['run', 'otel-team.yaml', '--input', 'go', '--runs-dir', runsDir()], { env: { OTEL_EXPORTER_OTLP_ENDPOINT: gone.url } });
    expect(result.stdout).toBe('Asking the helper.\nDone: Echoed: word\n');
    expect(result.code).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('telemetry: could not export'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"level":40');
  });
});
