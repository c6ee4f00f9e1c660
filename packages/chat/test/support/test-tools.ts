import type { Tool } from '@troupe/core';

/** A read-only tool (`look`) and a writing one (`save`), recording the calls they run. */
export function testTools() {
  const saved: string[] = [];
  const look: Tool = {
    name: 'look',
    description: 'Reads something.',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    execute: () => ({ content: 'looked' }),
  };
  const save: Tool = {
    name: 'save',
    description: 'Writes something.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    execute: (args) => {
      saved.push(String(args['path']));
      return { content: `saved ${String(args['path'])}` };
    },
  };
  return { tools: [look, save], saved };
}
