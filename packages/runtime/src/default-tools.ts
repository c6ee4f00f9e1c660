import { createNodeToolRegistry } from '@troupe/tools/node';
import type { ToolRegistry } from '@troupe/tools';

/**
 * The tools graph files may name when no registry is given: every tool `@troupe/tools` ships
 * (control tools, demo tools, and the Node tools bash, read_file, write_file, edit_file,
 * list_files and search). A new registry on each call.
 */
export function defaultToolRegistry(): ToolRegistry {
  return createNodeToolRegistry();
}
