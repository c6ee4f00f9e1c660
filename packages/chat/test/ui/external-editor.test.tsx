/**
 * `/editor` opens the external editor ($EDITOR, then $VISUAL, then vi) on a temporary file while
 * the UI is suspended, and sends what was saved; an empty file cancels (nothing is sent); the
 * temporary file is removed either way. The editor here is a shell script standing in for one.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editExternally, editorCommand } from '../../src/index.js';
import { fakeSession } from '../support/fake-session.js';
import { KEY, renderChat } from '../support/render-chat.js';

let dir: string;
let unmount: (() => void) | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chat-editor-test-'));
});
afterEach(() => {
  unmount?.();
  rmSync(dir, { recursive: true, force: true });
});

/** A fake editor: records the file it was given in `seen`, then writes `text` into it. */
function fakeEditor(text: string): { editor: string; seen: string } {
  const editor = join(dir, 'editor.sh');
  const seen = join(dir, 'seen');
  const content = join(dir, 'content');
  writeFileSync(content, text);
  writeFileSync(editor, `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\ncat '${content}' > "$1"\n`);
  chmodSync(editor, 0o755);
  return { editor, seen };
}

describe('/editor', () => {
  it('sends the saved text and removes the temporary file, with the UI suspended meanwhile', async () => {
    const { editor, seen } = fakeEditor('A long prompt\nwritten in my editor\n');
    const session = fakeSession();
    const suspended: string[] = [];
    const chat = renderChat(session, {
      openEditor: () => editExternally({ env: { EDITOR: editor }, stdio: 'ignore' }).text,
      terminal: { suspend: () => suspended.push('suspend'), resume: () => suspended.push('resume') },
    });
    unmount = chat.unmount;
    await chat.type(...'/editor', KEY.enter);
    await vi.waitFor(() => expect(session.sent).toEqual(['A long prompt\nwritten in my editor']), { timeout: 20_000 });
    expect(suspended).toEqual(['suspend', 'resume']);
    const file = readFileSync(seen, 'utf8');
    expect(file.startsWith(tmpdir())).toBe(true);
    expect(existsSync(file)).toBe(false);
  });

  it('sends nothing when the file is left empty', async () => {
    const { editor, seen } = fakeEditor('');
    const session = fakeSession();
    const chat = renderChat(session, { openEditor: () => editExternally({ env: { EDITOR: editor }, stdio: 'ignore' }).text });
    unmount = chat.unmount;
    await chat.type(...'/editor', KEY.enter);
    await chat.shows('editor: empty file, nothing sent');
    expect(session.sent).toEqual([]);
    expect(existsSync(readFileSync(seen, 'utf8'))).toBe(false);
  });

  it('runs $EDITOR, else $VISUAL, else vi', () => {
    expect(editorCommand({ EDITOR: 'nano', VISUAL: 'code --wait' })).toBe('nano');
    expect(editorCommand({ VISUAL: 'code --wait' })).toBe('code --wait');
    expect(editorCommand({ EDITOR: ' ' })).toBe('vi');
  });
});
