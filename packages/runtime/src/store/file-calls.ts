import { appendFile, close, fstat, ftruncate, mkdir, open, read, readdir, readFile, rename, unlink, writeFile } from 'node:fs';
import { promisify } from 'node:util';

/**
 * The file calls of the file run store, as promises made over `node:fs`'s callback functions.
 * Not `node:fs/promises`: there each `writeFile`, `readFile` or `appendFile` opens a `FileHandle`
 * (an event emitter) and chains a dozen promises, and a run on its way to hibernation made enough
 * such calls that they were most of what it allocated (about 190 KB a run, against a few KB of
 * its own); with many runs starting at once that garbage outlived young-generation collections
 * and set the process's peak memory. One promise per call here.
 */
export const fileCalls = {
  appendFile: promisify(appendFile),
  close: promisify(close),
  fstat: promisify(fstat),
  ftruncate: promisify(ftruncate),
  mkdir: promisify(mkdir),
  open: promisify(open),
  read: promisify(read),
  readdir: promisify(readdir),
  readFile: promisify(readFile),
  rename: promisify(rename),
  unlink: promisify(unlink),
  writeFile: promisify(writeFile),
} as const;
