import { builtinModels, type ModelInfo } from '@troupe/runtime';
import type { CliIo } from '../cli-io.js';
import { ExitCode } from '../exit-code.js';

/** What `troupe models` was asked to do. */
export interface ModelsCommandOptions {
  /** Only this vendor's models (`openai`, `anthropic`, `google`). */
  provider?: string;
  /** One JSON object per line instead of the table. */
  json?: boolean;
}

/** Dollars with two decimals, three when the third matters (`0.075`). */
function money(value: number): string {
  const three = value.toFixed(3);
  return three.endsWith('0') ? value.toFixed(2) : three;
}

function table(rows: readonly string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column >= 2 && column <= 7 ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * `troupe models`: the model catalog — for each model its `provider:model` name, context window,
 * output limit and prices in US dollars per million tokens (input, output, cache read, cache
 * write) — as a table on `io.stdout`, or JSON lines with `--json`. An unknown `--provider` exits 2.
 */
export function modelsCommand(options: ModelsCommandOptions, io: CliIo): ExitCode {
  const all = builtinModels();
  const models: ModelInfo[] = options.provider === undefined ? all : all.filter((m) => m.vendor === options.provider);
  if (models.length === 0) {
    const vendors = [...new Set(all.map((m) => m.vendor))].join(', ');
    io.stderr(`troupe models: no catalog for provider "${options.provider ?? ''}" (catalogs: ${vendors})\n`);
    return ExitCode.BadInput;
  }
  if (options.json === true) {
    for (const m of models) io.stdout(`${JSON.stringify({ model: `${m.vendor}:${m.id}`, ...m })}\n`);
    return ExitCode.Ok;
  }
  const rows = [['provider', 'model', 'context', 'max out', 'input', 'output', 'cache read', 'cache write', 'note']];
  for (const m of models) {
    const p = m.prices;
    rows.push([
      m.vendor,
      m.id,
      m.contextWindow.toLocaleString('en-US'),
      m.maxOutput.toLocaleString('en-US'),
      money(p.input),
      money(p.output),
      money(p.cacheRead),
      money(p.cacheWrite),
      m.note ?? '',
    ]);
  }
  io.stdout(`${table(rows)}\n`);
  io.stdout(
    'Prices in US dollars per million tokens. Use a model as provider:model (anthropic:claude-sonnet-4-5); Google models also as gemini:…, OpenAI ones through Chat Completions as openai-chat:…\n',
  );
  io.stdout(
    'OpenAI-compatible servers (openai-compatible, ollama, lmstudio, llamacpp, vllm, openrouter, groq, together) take any model name: local ones (ollama, lmstudio, llamacpp) cost nothing, the others show cost as unknown.\n',
  );
  return ExitCode.Ok;
}
