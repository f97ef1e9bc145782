// Types for conversation.js (plain browser module; node tests import it directly).
import type { RenderContext } from './blocks.js';

type State = import('../backend.js').PlaygroundState;
type Message = import('../backend.js').PlaygroundMessage;

export function conversationsFor(state: State, userId: string): { channels: State['channels']; appIm: State['ims'][number] | null; otherIms: State['ims'] };
export function displayName(state: State, id: string): string;
export function conversationTitle(state: State, userId: string, convId: string): string;
export function sidebarHtml(state: State, userId: string, current: string | null): string;
export function messageHtml(m: Message, state: State, convId: string, ctx: RenderContext, opts?: { inThread?: boolean; replies?: number }): string;
export function messagesHtml(state: State, userId: string, convId: string, ctx: RenderContext): string;
export function threadHtml(state: State, userId: string, convId: string, threadTs: string, ctx: RenderContext): string;
