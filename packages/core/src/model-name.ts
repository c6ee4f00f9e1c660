import type { Provider } from './provider.js';

/** The model names made so far, by provider name and model: agents of one model share one string (a joined string each was ~64 bytes per agent). */
const modelNames = new Map<string, Map<string, string>>();

/** `provider:model`, as a finished message names its model. */
export function modelNameOf(provider: Provider, model: string): string {
  let names = modelNames.get(provider.name);
  if (names === undefined) {
    names = new Map();
    modelNames.set(provider.name, names);
  }
  let name = names.get(model);
  if (name === undefined) {
    name = `${provider.name}:${model}`;
    names.set(model, name);
  }
  return name;
}
