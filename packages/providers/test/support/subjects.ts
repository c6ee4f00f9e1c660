import type { Provider } from '@troupe/core';
import { createModelCatalog } from '../../src/catalog/model-catalog.js';
import type { CatalogVendor } from '../../src/catalog/model-info.js';
import { createProvider, type CreateProviderOptions } from '../../src/create-provider.js';
import type { ContractSubject } from '../contract/provider-contract.js';
import type { VendorWire } from '../wire/vendor-wire.js';
import { ReplayServer } from './replay-server.js';

/** A key shaped like a real one, so the scrubber's shape rules are exercised too. */
export const TEST_KEY = 'sk-test-abcdefghijklmnopqrstuvwxyz0123456789';

/** A provider pointed at a replay server, with the test key and no environment. */
export function replayProvider(provider: string, baseUrl: string, options: CreateProviderOptions = {}): Provider {
  return createProvider({ provider, model: 'unused' }, { apiKey: TEST_KEY, baseUrl, env: {}, now: () => 1_700_000_000_000, ...options });
}

/** A contract subject: `provider` names the preset, `model` the model requests use. */
export function subject(input: { provider: string; model: string; vendor?: CatalogVendor; wire: VendorWire; baseUrlSuffix?: string }): ContractSubject {
  return {
    wire: input.wire,
    name: input.provider,
    model: input.model,
    catalogEntry: input.vendor === undefined ? undefined : createModelCatalog().find(input.vendor, input.model),
    apiKey: TEST_KEY,
    startServer: () => ReplayServer.start(),
    provider: (baseUrl, options = {}) => replayProvider(input.provider, `${baseUrl}${input.baseUrlSuffix ?? ''}`, options),
  };
}
