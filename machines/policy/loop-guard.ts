// Breaking mail loops: two agents, or an agent and an auto-responder, answering each other
// forever. A send is held for a human (`loop_suspected`), whatever the policy or category says,
// when the agent already sent `maxSends` mails into the thread within the window, or when it
// answers mail that was sent automatically (auto-submitted.ts) and itself answered the agent's
// own mail: the second turn of an auto-responder loop.

export type LoopSignals = {
  /** The agent's sends into this thread within the window. */
  recent_sends: number;
  max_sends: number;
  /** The message answered was sent automatically. */
  answers_auto_submitted: boolean;
  /** ...and it answered mail this inbox sent. */
  auto_submitted_answers_agent: boolean;
};

export function loopSuspected(s: LoopSignals): 'send_cap' | 'auto_reply_to_agent' | null {
  if (s.recent_sends >= s.max_sends) return 'send_cap';
  if (s.answers_auto_submitted && s.auto_submitted_answers_agent) return 'auto_reply_to_agent';
  return null;
}
