/**
 * The sandbox's controls (`/_sandbox/...`, JSON over loopback): its virtual
 * clock and the care system's own web app (complete, edit an action).
 */
export interface SandboxControls {
  setClock(at: Date): Promise<void>;
  completeAction(id: string): Promise<WebAppAction>;
  updateAction(id: string, changes: Record<string, unknown>): Promise<WebAppAction>;
  getAction(id: string): Promise<WebAppAction>;
}

/** An action as the web app returns it (the fields the demo reads). */
export interface WebAppAction {
  _id: string;
  action_no: string;
  task: string;
  completed: string | null;
  urgent: boolean;
  [key: string]: unknown;
}

/** A control answered 4xx: the request named something that does not exist or is not allowed. */
export class SandboxControlError extends Error {
  override readonly name = 'SandboxControlError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sandboxControls(controlsUrl: string): SandboxControls {
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${controlsUrl}/${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) {
      const hint = safeHint(text);
      if (res.status >= 400 && res.status < 500) throw new SandboxControlError(res.status, hint ?? `the care web app answered ${res.status}`);
      throw new Error(`sandbox control ${method} ${path.split('/')[0]} failed: ${res.status}`);
    }
    return text ? JSON.parse(text) : null;
  };
  return {
    async setClock(at) {
      await call('POST', 'clock', { set: at.toISOString() });
    },
    completeAction: (id) => call('POST', `actions/${encodeURIComponent(id)}/complete`, {}) as Promise<WebAppAction>,
    updateAction: (id, changes) => call('PATCH', `actions/${encodeURIComponent(id)}`, changes) as Promise<WebAppAction>,
    getAction: (id) => call('GET', `actions/${encodeURIComponent(id)}`) as Promise<WebAppAction>,
  };
}

function safeHint(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { hint?: unknown };
    return typeof body.hint === 'string' ? body.hint.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}
