/**
 * A person's command is answered within 10 s, whatever the care system does.
 * The care client may take far longer to give up on a hung API (each attempt
 * waits up to 10 s, and reads are tried 4 times with back-off). So if a
 * command has not answered after SLOW_AFTER_MS, the person is told, through
 * the command's own response_url, that the care system is slow and that the
 * result will follow there; the result (or the failure, in words) then comes
 * once, through the same response_url (it allows 5 uses in 30 minutes).
 *
 * Handlers do nothing for this: the dispatcher gives them a `reply` that
 * knows whether an answer went out already, and a way to say the person
 * already sees an answer elsewhere (a modal).
 */

/** When the "slow" line goes out: the person's bound is 10 s from typing, the post itself takes a moment. */
export const SLOW_AFTER_MS = 6000;

export const SLOW_TEXT = 'The care system is slow to answer; I’ll post the result here when it comes.';

type Reply<M> = (message: M) => Promise<void>;

export interface PatientReply<M> {
  /** Send the answer (after the "slow" line, if that went out first). */
  reply: Reply<M>;
  /** The person already sees an answer elsewhere (e.g. a modal opened): no "slow" line. */
  answeredElsewhere(): void;
  /** The command is over: no "slow" line from now on. */
  done(): void;
}

/**
 * Wrap one command's `reply`: after `afterMs` with no answer yet, `slow` is
 * sent through it; later answers wait for that line, so the person reads the
 * two in order.
 */
export function patientReply<M>(send: Reply<M>, slow: M, afterMs = SLOW_AFTER_MS): PatientReply<M> {
  let answered = false;
  let slowLine: Promise<void> | undefined;
  const timer = setTimeout(() => {
    if (answered) return;
    slowLine = send(slow).catch(() => undefined);
  }, afterMs);
  const settle = () => {
    answered = true;
    clearTimeout(timer);
  };
  return {
    reply: async (message) => {
      settle();
      await slowLine;
      await send(message);
    },
    answeredElsewhere: settle,
    done: settle,
  };
}
