import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** The absolute path of `name` on `PATH`, or `undefined` when it is not installed. */
export async function findExecutable(name: string, path = process.env['PATH'] ?? ''): Promise<string | undefined> {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}
