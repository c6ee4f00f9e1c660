/**
 * A vendor SDK client made by `make`, which loads the SDK with a dynamic `import()`: the SDKs are
 * the heaviest part of `@troupe/providers` (the OpenAI and Anthropic ones together about 35 MB of
 * memory and half a second to load), and a process whose graph uses neither vendor, such as a
 * worker of scripted or Google agents, never needs them.
 *
 * The load starts at once, while the process still starts up, so the first request rarely waits
 * for it. A load that fails is not an unhandled rejection: each request that awaits the client
 * gets the error, which its provider reports as a failed stream.
 */
export function lazyClient<Client>(make: () => Promise<Client>): Promise<Client> {
  const client = make();
  client.catch(() => undefined);
  return client;
}
