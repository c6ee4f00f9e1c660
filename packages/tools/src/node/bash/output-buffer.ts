/**
 * Collects a stream's bytes keeping only its first `head` and last `tail` bytes, so a command
 * that prints gigabytes costs a bounded amount of memory; what is dropped in between is counted
 * and shown as a marker.
 */
export class HeadTailBuffer {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Buffer;
  #headLength = 0;
  #tail: Buffer[] = [];
  #tailLength = 0;
  #total = 0;

  /** `cap` bytes in all: half for the head, half for the tail. */
  constructor(cap: number) {
    this.#headCap = Math.floor(cap / 2);
    this.#tailCap = cap - this.#headCap;
    this.#head = Buffer.alloc(this.#headCap);
  }

  /** Bytes seen so far. */
  get total(): number {
    return this.#total;
  }

  push(chunk: Buffer): void {
    this.#total += chunk.length;
    const intoHead = Math.min(chunk.length, this.#headCap - this.#headLength);
    if (intoHead > 0) {
      chunk.copy(this.#head, this.#headLength, 0, intoHead);
      this.#headLength += intoHead;
    }
    if (intoHead === chunk.length) return;
    const rest = chunk.subarray(intoHead);
    this.#tail.push(rest);
    this.#tailLength += rest.length;
    while (this.#tail.length > 1 && this.#tailLength - (this.#tail[0] as Buffer).length >= this.#tailCap) {
      this.#tailLength -= (this.#tail.shift() as Buffer).length;
    }
  }

  /** The text kept, with `[… N bytes omitted …]` between head and tail when bytes were dropped. */
  text(): { text: string; omitted: number } {
    const head = this.#head.subarray(0, this.#headLength);
    let tail = Buffer.concat(this.#tail);
    const omitted = Math.max(0, this.#total - this.#headLength - this.#tailCap);
    if (omitted === 0) return { text: Buffer.concat([head, tail]).toString('utf8'), omitted };
    tail = tail.subarray(tail.length - this.#tailCap);
    return { text: `${completeUtf8(head).toString('utf8')}\n[… ${omitted} bytes omitted …]\n${skipContinuation(tail).toString('utf8')}`, omitted };
  }
}

/** `bytes` without a UTF-8 sequence cut off at its end. */
function completeUtf8(bytes: Buffer): Buffer {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.subarray(0, bytes.length - back) : bytes;
  }
  return bytes;
}

/** `bytes` without the continuation bytes of a UTF-8 sequence cut off at its start. */
function skipContinuation(bytes: Buffer): Buffer {
  let start = 0;
  while (start < Math.min(3, bytes.length) && ((bytes[start] as number) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start);
}
