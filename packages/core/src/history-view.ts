/**
 * What each model call is given of the history: a read-only, fixed-length view that later turns
 * cannot change, made without copying the history.
 *
 * The history is one array the agent appends to in place (a turn costs what it adds, not a copy
 * of the conversation). Handing that array to a provider would let a later append change what an
 * earlier call holds (a provider that keeps the request to log or retry it). A view fixes the
 * length at the call and leaves out the messages that are not sent to the model (see
 * `inModelContext`); those are found once each, as they are appended, so a call costs
 * O(messages added since the last call).
 */
import { inModelContext, type Message } from './messages.js';

/** Makes the views of one agent's history, remembering which messages it leaves out. */
export class HistoryViews {
  readonly #keep: (message: Message) => boolean;
  #source: readonly Message[] | undefined;
  #scanned = 0;
  /** Indices (ascending) of the messages of `#source` left out; only ever appended to, so views share it. */
  #excluded: number[] = [];

  /** `keep` says which messages the views show. Default: those sent to the model (`inModelContext`). */
  constructor(keep: (message: Message) => boolean = inModelContext) {
    this.#keep = keep;
  }

  /** A view of `history` as it is now, without the messages that are not kept. */
  of(history: readonly Message[]): readonly Message[] {
    // A new array (a restore, a compaction) or a shorter one starts the scan again.
    if (history !== this.#source || history.length < this.#scanned) {
      this.#source = history;
      this.#scanned = 0;
      this.#excluded = [];
    }
    for (let i = this.#scanned; i < history.length; i++) {
      const message = history[i];
      if (message !== undefined && !this.#keep(message)) this.#excluded.push(i);
    }
    this.#scanned = history.length;
    return historyView(history, history.length, this.#excluded, this.#excluded.length);
  }
}

/**
 * A read-only array of the first `length` messages of `source` without those at `excluded[0 …
 * count)`. It is an `Array` to every reader (`Array.isArray`, indexing, iteration, `map`, JSON),
 * and throws on writes.
 */
export function historyView(source: readonly Message[], length: number, excluded: readonly number[], count: number): readonly Message[] {
  return new Proxy<Message[]>([], new ViewHandler(source, length - count, excluded, count));
}

/**
 * The traps of one view. A class, so a view costs one small object rather than a closure per trap
 * (a view is made for every model call, and providers may keep it).
 */
class ViewHandler implements ProxyHandler<Message[]> {
  readonly #source: readonly Message[];
  readonly #size: number;
  readonly #excluded: readonly number[];
  readonly #count: number;

  constructor(source: readonly Message[], size: number, excluded: readonly number[], count: number) {
    this.#source = source;
    this.#size = size;
    this.#excluded = excluded;
    this.#count = count;
  }

  /** The message at view index `i` (`i` < size): skips the excluded indices at or before it. */
  #at(i: number): Message | undefined {
    let j = i;
    for (let k = 0; k < this.#count && (this.#excluded[k] ?? Infinity) <= j; k++) j++;
    return this.#source[j];
  }

  get(target: Message[], key: string | symbol, receiver: unknown): unknown {
    if (typeof key === 'string') {
      if (key === 'length') return this.#size;
      const index = indexOf(key);
      if (index !== undefined) return index < this.#size ? this.#at(index) : undefined;
    }
    return Reflect.get(target, key, receiver) as unknown;
  }

  has(target: Message[], key: string | symbol): boolean {
    if (typeof key === 'string') {
      const index = indexOf(key);
      if (index !== undefined) return index < this.#size;
    }
    return Reflect.has(target, key);
  }

  ownKeys(): string[] {
    const keys: string[] = [];
    for (let i = 0; i < this.#size; i++) keys.push(String(i));
    keys.push('length');
    return keys;
  }

  getOwnPropertyDescriptor(target: Message[], key: string | symbol): PropertyDescriptor | undefined {
    if (key === 'length') return { value: this.#size, writable: true, enumerable: false, configurable: false };
    const index = typeof key === 'string' ? indexOf(key) : undefined;
    if (index !== undefined && index < this.#size) return { value: this.#at(index), writable: false, enumerable: true, configurable: true };
    return Reflect.getOwnPropertyDescriptor(target, key);
  }

  set(): boolean {
    return false;
  }

  defineProperty(): boolean {
    return false;
  }

  deleteProperty(): boolean {
    return false;
  }
}

/** The array index a property key names, if it names one. */
function indexOf(key: string): number | undefined {
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57) return undefined;
  const index = Number(key);
  return Number.isInteger(index) && String(index) === key ? index : undefined;
}
