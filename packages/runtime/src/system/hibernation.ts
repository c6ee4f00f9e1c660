/**
 * When an actor waiting for a user (an answer or an approval) is hibernated: checkpointed to the
 * store and dropped from memory, to be restored from its checkpoint, transparently, by the next
 * control command for its path (a reply, an approval, an abort…). Waiting for its outcome does
 * not wake it. An actor is hibernated when either limit is passed; without either, none is.
 */
export interface HibernationPolicy {
  /** How long it waits before it is hibernated; 0: as soon as its checkpoint is stored. Default: no limit. */
  afterMs?: number;
  /**
   * The most actors waiting for a user that a process keeps in memory: beyond it, the one that
   * has waited longest is hibernated at once. Default: no limit.
   */
  maxWaiting?: number;
}
