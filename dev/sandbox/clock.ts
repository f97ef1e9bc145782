/**
 * The sandbox's virtual data clock: it runs at the speed of real time from an
 * offset that tests can set or advance. It stamps created/modified/completed
 * and anchors seed data. Authentication never uses it (real wall clock only).
 */
export class VirtualClock {
  private offsetMs: number;

  constructor(
    start?: Date,
    private readonly realNow: () => number = Date.now,
  ) {
    this.offsetMs = start ? start.getTime() - realNow() : 0;
  }

  now(): number {
    return this.realNow() + this.offsetMs;
  }

  set(ms: number): void {
    this.offsetMs = ms - this.realNow();
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  /** Virtual minus real time, in ms (persisted so a restart keeps the clock). */
  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }
}
