// Automatic feedback: when the org opted in, an unexpected 5xx from the service is filed as
// support feedback (`submission_mode: automatic`) in the background. It never changes what the
// failed call does: the call's error is thrown as it was, and nothing is retried because of the
// report (a send above all). A failure to file is swallowed; the report is best effort.
import { AgentInboxError } from './errors.ts';
import type { OperationId } from './generated/operations.ts';

export type AutomaticFeedbackOptions = {
  /** The project to file in; default: the key's own (read once with whoami). */
  projectId?: string | undefined;
  /** Seconds the org's reporting policy is trusted before it is read again. Default 300. */
  policyTtlSeconds?: number | undefined;
};

/** What the reporter needs of the client: plain calls that go around the reporter itself. */
export type FeedbackPort = {
  projectOfKey(): Promise<string>;
  automaticAllowed(projectId: string): Promise<boolean>;
  file(projectId: string, body: Record<string, unknown>): Promise<unknown>;
};

/** Calls whose own failure is not reported: they are the reporter's own path. */
const NOT_REPORTED = new Set<OperationId>(['submitFeedback', 'getReportingPolicy', 'whoami']);

export class AutomaticFeedback {
  private pending = new Set<Promise<void>>();
  private policy: { projectId: string; allowed: boolean; until: number } | null = null;

  constructor(
    private readonly port: FeedbackPort,
    private readonly options: AutomaticFeedbackOptions,
    private readonly sdkVersion: string,
  ) {}

  /** Starts filing a report for `err` when it is an unexpected 5xx; returns at once. */
  observe(operation: OperationId, method: string, err: unknown): void {
    if (!(err instanceof AgentInboxError) || err.status < 500 || NOT_REPORTED.has(operation)) return;
    const filing = this.file(operation, method, err).catch(() => {});
    this.pending.add(filing);
    void filing.finally(() => this.pending.delete(filing));
  }

  /** Resolves when every report started so far was filed (or given up). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async file(operation: OperationId, method: string, err: AgentInboxError): Promise<void> {
    const projectId = this.options.projectId ?? (await this.port.projectOfKey());
    if (!(await this.allowed(projectId))) return;
    await this.port.file(projectId, {
      client_id: globalThis.crypto.randomUUID(),
      submission_mode: 'automatic',
      category: 'unexpected_error',
      user_intent: `Call ${operation}`.slice(0, 500),
      observed_behavior: `${method} ${operation} answered ${err.status} ${err.code}${err.detail ? `: ${err.detail}` : ''}`.slice(0, 2000),
      outcome: 'observation',
      attempts: [{ operation: operation.slice(0, 80), http_status: err.status, error_code: err.code.slice(0, 80), ...(err.requestId ? { summary: `request_id ${err.requestId}`.slice(0, 300) } : {}) }],
      client_versions: { sdk: this.sdkVersion },
    });
  }

  private async allowed(projectId: string): Promise<boolean> {
    const now = Date.now();
    if (this.policy && this.policy.projectId === projectId && this.policy.until > now) return this.policy.allowed;
    const allowed = await this.port.automaticAllowed(projectId);
    this.policy = { projectId, allowed, until: now + (this.options.policyTtlSeconds ?? 300) * 1000 };
    return allowed;
  }
}
