/** The handover post a button was pressed on: where it is, when the button's reference names that channel. */
export const NOT_A_HANDOVER_POST = 'This button is not on a handover post I can read; nothing was changed.';

export function handoverPostOf(
  body: { message?: { ts?: string }; channel?: { id?: string }; container?: { channel_id?: string } },
  ref: { channelId: string } | null | undefined,
): { ts: string; channelId: string } | null {
  const ts = body.message?.ts;
  const channelId = body.channel?.id ?? body.container?.channel_id;
  return ref && ts && channelId === ref.channelId ? { ts, channelId } : null;
}
