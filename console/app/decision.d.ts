// Types of decision.js for the tests that import it (the page itself runs the JavaScript).
export type ShownReview = { id: string; version: number; revision: number; state: string; allowed_actions: string[]; draft: any; feedback_history?: any[]; [k: string]: any };
export type Change = { from_revision: number; to_revision: number; fields: Array<{ field: string; before: string; after: string }>; state: { before: string; after: string } | null; notes: any[]; base?: ShownReview };
export type DecisionState = { shown: ShownReview | null; change: Change | null; held: boolean; inFlight: boolean; later: ShownReview | null };
export type DecisionBody = { action: string; parent_revision: number; [field: string]: unknown };
export function initialDecisionState(review?: ShownReview | null): DecisionState;
export function describeChange(before: ShownReview, after: ShownReview): Change;
export function reviewArrived(state: DecisionState, review: ShownReview | null): DecisionState;
export function requestDecision(state: DecisionState, action: string, fields?: Record<string, unknown>): { state: DecisionState; send: DecisionBody | null; why: null | 'loading' | 'in_flight' | 'look_again' | 'not_allowed' };
export function legal(review: ShownReview, action: string): boolean;
export function decisionBody(shown: ShownReview, action: string, fields?: Record<string, unknown>): DecisionBody;
export function decisionApplied(state: DecisionState, review: ShownReview | null): DecisionState;
export function decisionRefused(state: DecisionState, current: ShownReview | null): DecisionState;
export function decisionFailed(state: DecisionState): DecisionState;
export function changeSeen(state: DecisionState): DecisionState;
export function checkedBeforeSend(state: DecisionState, fresh: ShownReview | null): { state: DecisionState; go: boolean };
