import { WebClient } from '@slack/web-api';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace, DEFAULT_BOT_SCOPES, manualClock, RATE_TIERS, startSlackFake, type SlackFake } from '../../dev/slack-fake/index.js';
import { silentLogger } from '../../src/logging/logger.js';
import { uploadFileToDm } from '../../src/slack/web-api/file-upload.js';
import { createSlackPacer } from '../../src/slack/web-api/slack-pacer.js';
import { createSlackWebClient } from '../../src/slack/web-api/web-clients.js';

let fake: SlackFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function call(
  f: SlackFake,
  method: string,
  args: Record<string, unknown>,
  token = f.botToken,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${f.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const client = (f: SlackFake) => new WebClient(f.botToken, { slackApiUrl: f.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });

describe("the Slack fake's external file upload (files.getUploadURLExternal, upload_url, files.completeUploadExternal)", () => {
  it("hands out an upload_url on the fake's own server, keeps the bytes POSTed there, and shares the file into the DM on completion", async () => {
    fake = await startSlackFake();
    const im = (await call(fake, 'conversations.open', { users: 'U0ALICE' })).body.channel as { id: string };
    const got = await call(fake, 'files.getUploadURLExternal', { filename: 'report.csv', length: 12 });
    expect(got.body).toMatchObject({ ok: true, file_id: expect.stringMatching(/^F/) });
    const uploadUrl = String(got.body.upload_url);
    expect(uploadUrl.startsWith(`${fake.url}upload/v1/`)).toBe(true);
    const posted = await fetch(uploadUrl, { method: 'POST', body: 'a,b\r\n"1",2\r\n' });
    expect([posted.status, await posted.text()]).toEqual([200, 'OK - 12']);
    // Not shared yet: nothing in the DM, the file only among all uploads.
    expect(fake.files()).toEqual([]);
    expect(fake.files({ all: true })[0]).toMatchObject({ name: 'report.csv', completed: false });
    const done = await call(fake, 'files.completeUploadExternal', {
      files: [{ id: got.body.file_id, title: 'The report' }],
      channel_id: im.id,
      initial_comment: 'Here it is',
    });
    expect(done.body).toMatchObject({ ok: true, files: [{ id: got.body.file_id, title: 'The report' }] });
    const [file] = fake.files({ dm: 'alice' });
    expect(file).toMatchObject({ name: 'report.csv', title: 'The report', text: 'a,b\r\n"1",2\r\n', completed: true, channels: [im.id] });
    const [message] = fake.dms('alice');
    expect(fake.visibleText(message!, { viewer: 'alice' })).toBe('Here it is\n[file: report.csv]');
    expect(message!.files?.[0]).toMatchObject({ id: got.body.file_id, name: 'report.csv', size: 12, mimetype: 'text/csv' });
  });

  it('answers as Slack does for a wrong file id, a file whose bytes never came, a second completion, and a length of 0', async () => {
    fake = await startSlackFake();
    const im = (await call(fake, 'conversations.open', { users: 'U0BOB' })).body.channel as { id: string };
    expect((await call(fake, 'files.completeUploadExternal', { files: [{ id: 'F0NOPE' }], channel_id: im.id })).body).toEqual({
      ok: false,
      error: 'file_not_found',
    });
    const got = await call(fake, 'files.getUploadURLExternal', { filename: 'x.csv', length: 3 });
    expect((await call(fake, 'files.completeUploadExternal', { files: [{ id: got.body.file_id }], channel_id: im.id })).body.error).toBe('file_not_found');
    await fetch(String(got.body.upload_url), { method: 'POST', body: 'abc' });
    expect((await call(fake, 'files.completeUploadExternal', { files: [{ id: got.body.file_id }], channel_id: 'C0NOPE' })).body.error).toBe(
      'channel_not_found',
    );
    expect((await call(fake, 'files.completeUploadExternal', { files: [{ id: got.body.file_id }], channel_id: im.id })).body.ok).toBe(true);
    expect((await call(fake, 'files.completeUploadExternal', { files: [{ id: got.body.file_id }], channel_id: im.id })).body.error).toBe('file_not_found');
    expect((await call(fake, 'files.getUploadURLExternal', { filename: 'x.csv', length: 0 })).body.error).toBe('missing_argument');
    expect((await call(fake, 'files.getUploadURLExternal', { length: 3 })).body.error).toBe('invalid_arguments');
    expect((await fetch(`${fake.url}upload/v1/T0CARE/nope`, { method: 'POST', body: 'abc' })).status).toBe(404);
    expect(fake.dms('bob')).toHaveLength(1);
  });

  it('refuses both methods with missing_scope when the install lacks files:write', async () => {
    fake = await startSlackFake({ workspace: demoWorkspace({ scopes: DEFAULT_BOT_SCOPES.filter((s) => s !== 'files:write') }) });
    expect((await call(fake, 'files.getUploadURLExternal', { filename: 'x.csv', length: 3 })).body).toMatchObject({
      ok: false,
      error: 'missing_scope',
      needed: 'files:write',
    });
    expect((await call(fake, 'files.completeUploadExternal', { files: [{ id: 'F0X' }] })).body).toMatchObject({
      ok: false,
      error: 'missing_scope',
      needed: 'files:write',
    });
  });

  it('holds both methods to Tier 4: 100 at once, then 429 with Retry-After', async () => {
    expect([RATE_TIERS['files.getUploadURLExternal'], RATE_TIERS['files.completeUploadExternal']]).toEqual([4, 4]);
    fake = await startSlackFake({ clock: manualClock() });
    for (let i = 0; i < 100; i++) expect((await call(fake, 'files.getUploadURLExternal', { filename: 'x.csv', length: 1 })).status).toBe(200);
    const limited = await call(fake, 'files.getUploadURLExternal', { filename: 'x.csv', length: 1 });
    expect([limited.status, limited.body.error]).toEqual([429, 'ratelimited']);
  });

  it("takes the multipart body @slack/web-api's filesUploadV2 sends", async () => {
    fake = await startSlackFake();
    const slack = client(fake);
    const im = await slack.conversations.open({ users: 'U0CAROL' });
    await slack.filesUploadV2({ channel_id: im.channel!.id!, file: Buffer.from('x,y\n1,2\n'), filename: 'numbers.csv', initial_comment: 'Numbers' });
    expect(fake.files({ dm: 'carol' }).map((f) => [f.name, f.text])).toEqual([['numbers.csv', 'x,y\n1,2\n']]);
  });
});

describe("the app's uploadFileToDm (src/slack/web-api/file-upload.ts) through a paced WebClient", () => {
  it('sends the named file with its comment into the person’s DM, once', async () => {
    fake = await startSlackFake();
    const pacer = createSlackPacer({ distribution: 'internal' });
    const slack = createSlackWebClient(fake.botToken, 'interactive', { apiUrl: fake.apiUrl, pacer, logger: silentLogger });
    const csv = 'Number,Location\r\n17,"Rose Wing, upstairs"\r\n';
    const sent = await uploadFileToDm(slack, 'U0ALICE', { filename: 'evidence.csv', content: csv, comment: 'Your evidence export' });
    const files = fake.files({ dm: 'alice' });
    expect(files.map((f) => [f.id, f.name, f.text])).toEqual([[sent.fileId, 'evidence.csv', csv]]);
    expect(fake.dms('alice').map((m) => fake!.visibleText(m, { viewer: 'alice' }))).toEqual(['Your evidence export\n[file: evidence.csv]']);
    expect(fake.calls('files.getUploadURLExternal')).toHaveLength(1);
    expect(fake.calls('files.completeUploadExternal')[0]?.args.channel_id).toBe(sent.channelId);
  });
});
