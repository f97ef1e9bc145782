/**
 * When a rotating bot token is refreshed: once less than a margin of its life
 * is left, the margin being 5 minutes or a fifth of its lifetime, whichever is
 * smaller (Slack's 12-hour tokens: 5 minutes before expiry; a 2-minute token of
 * a test: 24 seconds before). Pure, on the app's clock.
 */
import type { SlackInstallation } from '../../store/index.js';

export const MAX_REFRESH_MARGIN_MS = 5 * 60_000;
export const REFRESH_MARGIN_SHARE = 0.2;
/** Slack's lifetime, assumed when a row does not tell (expiry before the time it was issued). */
export const SLACK_TOKEN_LIFETIME_MS = 12 * 3600_000;

/** When a rotating token expires and how long it lives (ms). */
export interface TokenTimes {
  expiresAtMs: number;
  lifetimeMs: number;
}

export function refreshMarginMs(lifetimeMs: number): number {
  return Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, lifetimeMs) * REFRESH_MARGIN_SHARE);
}

/** A stored bot token's times; null when it does not rotate (no refresh token or no expiry). */
export function tokenTimes(installation: Pick<SlackInstallation, 'bot' | 'updatedAt'>): TokenTimes | null {
  const bot = installation.bot;
  if (!bot?.refreshToken || bot.expiresAt === null) return null;
  const expiresAtMs = bot.expiresAt * 1000;
  // Issued when last refreshed, or else when installed (the install's save).
  const lifetimeMs = expiresAtMs - (bot.refreshedAt ?? installation.updatedAt);
  return { expiresAtMs, lifetimeMs: lifetimeMs > 0 ? lifetimeMs : SLACK_TOKEN_LIFETIME_MS };
}

/** Time to refresh: less than the margin is left (or it has expired). */
export function isDue(times: TokenTimes, now: number): boolean {
  return now >= times.expiresAtMs - refreshMarginMs(times.lifetimeMs);
}

export function isExpired(times: TokenTimes, now: number): boolean {
  return now >= times.expiresAtMs;
}
