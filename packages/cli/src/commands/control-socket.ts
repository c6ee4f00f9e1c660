import { runDirOf, serveRunControl, type Logger, type RunHandle } from '@troupe/runtime';

/**
 * Opens the control socket of a run this process runs from the runs directory `runsDir`, so that
 * `troupe abort` and `troupe steer` reach it from other processes; returns the function that
 * closes it (when the run is left waiting; it closes by itself when the run ends). The run does not
 * wait for it: a socket that cannot be opened is logged, and the run goes on without one.
 */
export function openControlSocket(handle: RunHandle, runsDir: string, logger: Logger): () => Promise<void> {
  const serving = serveRunControl(handle, { runDir: runDirOf(runsDir, handle.id) }).catch((error: unknown) => {
    logger.warn({ err: error, run: handle.id }, 'the control socket could not be opened: troupe abort and troupe steer cannot reach this run');
    return undefined;
  });
  return async () => (await serving)?.close();
}
