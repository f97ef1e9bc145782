import type { SlackFake } from '../start-fake.js';
import type { DriverRequestKind, SlackUser, StateValue } from '../types.js';
import type { Found, Where } from './locate.js';
import type { AppAnswer } from './send.js';
import type { PersonInput } from './state-values.js';

/** What the app answered to a driven request, with what Slack handed out for it. */
export interface DriverResult extends AppAnswer {
  triggerId?: string;
  responseUrl?: string;
  /** The person pressed Cancel in the element's confirmation dialog: nothing was sent to the app. */
  cancelled?: boolean;
}

/** The part of the driver a modal handle acts through (the driver implements it; no import circle). */
export interface ModalDriver {
  readonly fake: SlackFake;
  readonly waitTimeoutMs: number;
  sendPayload(kind: DriverRequestKind, name: string, user: string, payload: Record<string, unknown>): Promise<AppAnswer>;
  clickButton(userRef: string, target: Where & { text: string; confirm?: 'accept' | 'cancel' }): Promise<DriverResult>;
  selectOption(userRef: string, target: Where & { control: string; option: PersonInput }): Promise<DriverResult>;
  valueFor(user: SlackUser, found: Found, input: PersonInput, where: string): Promise<StateValue>;
  setViewValue(user: SlackUser, found: Found, value: StateValue): void;
}
