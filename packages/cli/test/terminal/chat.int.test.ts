/**
 * Proves `troupe chat` end to end in a real terminal (tmux, on its own server socket): on a
 * scripted graph a person types a prompt, sees the write's diff and approves it (the file is
 * written), toggles plan mode (the reply is labelled PLAN), switches back (the plan is sent and
 * the agent works on it), resizes the window (the layout follows the new width), presses Ctrl+C
 * during the long turn (it shows aborted), quits with Ctrl+C twice, and finds the chat as a
 * recorded run that `troupe runs` lists and `troupe chat --resume` shows again. With a team, a
 * sub-agent's question and permission request show its path and are answered in the chat, and
 * `/model` switches the lead's model for the next turn (the status bar follows).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, TROUPE_BIN } from '../spawn-troupe.js';
import { TmuxSession } from './tmux.js';

// ink draws only its final frame when it thinks it runs in CI (a CI variable): troupe chat hides the
// variable while it loads ink, so a person's shell that exports one still gets a live screen.
const INTERACTIVE = 'env CI=true';

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('troupe chat in a terminal', () => {
  it('chats, approves a write, plans, resizes, aborts on Ctrl+C, quits, and is recorded as a run', { timeout: 120_000 }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'troupe-chat-e2e-'));
    const runs = join(work, 'runs');
    const tmux = await TmuxSession.start({ columns: 100, rows: 30, cwd: work });
    session = tmux;
    await tmux.command(`${INTERACTIVE} node ${TROUPE_BIN} chat ${join(FIXTURES, 'chat.yaml')} --runs-dir ${runs}`);
    await tmux.waitFor(/scripted:default · EXECUTE · idle/, 60_000);

    await tmux.keys({ text: 'write the greeting' }, 'Enter');
    let rows = await tmux.waitFor(/Allow write_file hello\.txt\?/);
    let shown = rows.join('\n');
    expect(shown).toContain('› write the greeting');
    expect(shown).toMatch(/▾ write_file\(hello\.txt\) \[approval\]\n│ @@ -0,0 \+1,1 @@\n│ \+ hello from chat/);
    expect(shown).toContain('[y] allow once   [a] always (this session)');
    expect(existsSync(join(work, 'hello.txt'))).toBe(false);
    await tmux.keys('y');
    await tmux.waitFor(/Wrote hello\.txt\./);
    expect(readFileSync(join(work, 'hello.txt'), 'utf8')).toBe('hello from chat\n');

    await tmux.keys('BTab');
    await tmux.waitFor(/· PLAN · idle/);
    await tmux.keys({ text: 'plan the next step' }, 'Enter');
    rows = await tmux.waitFor(/┃ PLAN\n┃ +1\. Read hello\.txt\n┃ +2\. Add a second line/);
    await tmux.keys('BTab');
    rows = await tmux.waitFor(/· EXECUTE · thinking/);
    expect(rows.join('\n')).toContain('Carry out this plan now:');

    await tmux.resize(60, 20);
    // The new frame: a 60-wide rule above the input (the terminal first rewraps the old frame's 100-wide rule into 60 + 40).
    rows = await tmux.waitFor(/^─{60}\n›/m);
    const status = rows.find((row) => row.startsWith('scripted:default · EXECUTE'));
    expect(status?.length).toBeLessThanOrEqual(60);
    expect(rows.filter((row) => /^─+$/.test(row))).toEqual(['─'.repeat(60)]);

    await tmux.keys('C-c');
    shown = (await tmux.waitFor(/■ aborted/)).join('\n');
    await tmux.waitFor(/EXECUTE · idle/);
    await tmux.keys('C-c');
    await tmux.waitFor(/Ctrl\+C again to quit/);
    await tmux.keys('C-c');
    shown = (await tmux.waitFor(/EXIT=\d+/)).join('\n');
    expect(shown).toContain('EXIT=0');
    const runId = /chat recorded as run (run_\w+)/.exec(shown)?.[1];
    expect(runId).toBeDefined();

    await tmux.command(`node ${TROUPE_BIN} runs --runs-dir ${runs}`);
    shown = (await tmux.waitFor(/EXIT=\d+\n[\s\S]*EXIT=\d+/)).join('\n');
    expect(shown).toMatch(new RegExp(`${runId} +aborted +coder`));

    await tmux.command(`${INTERACTIVE} node ${TROUPE_BIN} chat --resume ${runId} --runs-dir ${runs}`);
    // The window is still 60 × 20: the end of the conversation shows, the plan labelled as before.
    rows = await tmux.waitFor(/┃ PLAN[\s\S]*■ aborted[\s\S]*EXECUTE · idle/, 60_000);
    await tmux.keys('PageUp', 'PageUp');
    await tmux.waitFor(/› write the greeting/);
    await tmux.keys({ text: '/quit' }, 'Enter');
    await tmux.waitFor(/EXIT=\d+\n[\s\S]*EXIT=\d+\n[\s\S]*EXIT=0/);
  });

  it("answers a sub-agent's question and approval, and switches the model with /model", { timeout: 120_000 }, async () => {
    const work = mkdtempSync(join(tmpdir(), 'troupe-chat-team-e2e-'));
    const tmux = await TmuxSession.start({ columns: 100, rows: 30, cwd: work });
    session = tmux;
    await tmux.command(`${INTERACTIVE} node ${TROUPE_BIN} chat ${join(FIXTURES, 'chat-team.yaml')} --runs-dir ${join(work, 'runs')}`);
    await tmux.waitFor(/scripted:lead · EXECUTE · idle/, 60_000);

    await tmux.keys({ text: 'write a note' }, 'Enter');
    await tmux.waitFor(/\? lead\/helper#1 · Which title\?/);
    await tmux.keys({ text: 'Groceries' }, 'Enter');
    const rows = await tmux.waitFor(/\? lead\/helper#1 · Allow write_file note\.txt\?/);
    expect(rows.join('\n')).toMatch(/lead\/helper#1 write_file\(note\.txt\) \[approval\]/);
    await tmux.keys('y');
    await tmux.waitFor(/Lead: wrote the note/);
    expect(readFileSync(join(work, 'note.txt'), 'utf8')).toBe('a note\n');

    await tmux.keys({ text: '/model fast' }, 'Enter');
    await tmux.waitFor(/model: scripted:fast from the next turn[\s\S]*scripted:fast · EXECUTE · idle/);
    await tmux.keys({ text: 'again' }, 'Enter');
    await tmux.waitFor(/Fast reply\./);
    await tmux.keys({ text: '/quit' }, 'Enter');
    await tmux.waitFor(/EXIT=0/);
  });
});
