/**
 * Which composed workspaces an instance lets go of now (registry.ts): those not used here for `idleMs`, the
 * longest idle first, at most `atMost` at once. Letting go of hundreds at the same moment (every workspace the
 * other instance runs, ten minutes after start) would close them all at once, a minute later, in one busy
 * burst; a few at each listing spread that over the next ticks.
 */
export interface IdleCandidate {
  id: string;
  /** When it was last used here (epoch ms). */
  usedAt: number;
}

/** The ids to let go of at `now`, longest idle first; none being composed now (`busy`). */
export function idleToLetGo(
  entries: Iterable<IdleCandidate>,
  now: number,
  idleMs: number,
  atMost: number,
  busy: (id: string) => boolean = () => false,
): string[] {
  const idle: IdleCandidate[] = [];
  for (const e of entries) if (now - e.usedAt >= idleMs && !busy(e.id)) idle.push(e);
  idle.sort((a, b) => a.usedAt - b.usedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return idle.slice(0, Math.max(0, Math.floor(atMost))).map((e) => e.id);
}
