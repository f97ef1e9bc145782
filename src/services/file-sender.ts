/**
 * The port a service is given to send a person a file in their DM with the app (services never import
 * slack): slack/web-api/file-upload.ts implements it with Slack's external upload flow, wired in
 * workspaces/compose-workspace.ts.
 */
export interface OutgoingFile {
  /** The file's name as Slack shows it (e.g. `care-evidence-2026-11-01-to-2026-11-30.csv`). */
  filename: string;
  /** Its title (default: the filename). */
  title?: string;
  content: string | Uint8Array;
  /**
   * The message that shares the file (Slack's `initial_comment`, mrkdwn; it is also the notification's
   * text: no resident names, no task text).
   */
  comment?: string;
}

export interface SentFile {
  fileId: string;
  /** The DM's conversation id. */
  channelId: string;
}

/**
 * Slack refused the file for a reason a person can act on: `missing-scope`, the install lacks `files:write`
 * (an install made before the app asked for it: reinstalling grants it).
 */
export class FileSendRefused extends Error {
  override name = 'FileSendRefused';
  constructor(readonly reason: 'missing-scope') {
    super(`Slack refused the file: ${reason}`);
  }
}

/** Sends `file` into the DM of the Slack person `userId`; throws FileSendRefused when Slack refuses it for a known reason. */
export type DmFileSender = (userId: string, file: OutgoingFile) => Promise<SentFile>;
