// Types for blocks.js (plain browser module; node tests import it directly).

export interface RenderContext {
  users?: Array<{ id: string; name: string; real_name?: string }>;
  channels?: Array<{ id: string; name: string; is_private?: boolean }>;
  app?: { name: string; bot_user_id: string };
  /** IANA zone for date tokens; default: the runtime's local zone. */
  timeZone?: string;
  locale?: string;
  /** "Now" in ms since epoch, for Today/Yesterday and {ago}. */
  now?: number;
  /** Inline errors by block_id (overrides view.errors in renderView). */
  errors?: Record<string, string>;
  /** Raw field values kept across re-renders (from formValues). */
  values?: RawValues;
}

export type RawValues = Record<string, Record<string, string[]>>;
export type Block = { type: string; block_id?: string } & Record<string, unknown>;
export interface View {
  id?: string;
  type: 'modal' | 'home';
  blocks: Block[];
  title?: unknown;
  submit?: unknown;
  close?: unknown;
  errors?: Record<string, string>;
  general_error?: string;
  [key: string]: unknown;
}
export type StateValues = Record<string, Record<string, { type: string } & Record<string, unknown>>>;
/** A form element, FormData, [name, value] pairs, or a RawValues map. */
export type FormSource = Iterable<[string, string | unknown]> | RawValues | { querySelectorAll(selector: string): unknown };

export function renderBlocks(blocks: unknown, ctx?: RenderContext): string;
export function renderView(view: View | null | undefined, ctx?: RenderContext): string;
export function renderMrkdwn(text: string | null | undefined, ctx?: RenderContext): string;
export function renderPlainText(obj: string | { text: string; emoji?: boolean } | null | undefined): string;
export function renderText(obj: unknown, ctx?: RenderContext): string;
export function formatSlackDate(unixSeconds: number, format: string, ctx?: RenderContext): string;
export function collectViewState(source: FormSource, view: View): StateValues;
export function formValues(source: FormSource, view: View): RawValues;
export function validateViewState(view: View, values: StateValues): Record<string, string>;
export function findElement(blocks: unknown, blockId: string, actionId: string): (Record<string, unknown> & { type: string }) | null;
export function chip(option: { text?: { text: string }; value: string }, name: string): string;
export function fieldName(blockId: string, actionId: string): string;
export function blockIdOf(block: unknown, index: number): string;
export function actionIdOf(element: unknown, index: number): string;
