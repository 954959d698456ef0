// Generated from the OpenAPI document by `npm run generate -w @agent-inbox/sdk`. Do not edit.
import type * as T from '../types.ts';
import type { OperationId } from './operations.ts';

export abstract class GeneratedMethods {
  protected abstract call(
    id: OperationId,
    params: Record<string, string>,
    body: unknown,
    query: unknown,
    kind: 'json' | 'bytes' | 'response',
    options?: T.CallOptions,
  ): Promise<any>;

  /** Redeem an enrollment token for a project-bound agent key. (POST /v1/enroll) */
  redeemEnrollment(body: T.BodyOf<'redeemEnrollment'>, options?: T.CallOptions): Promise<T.ResponseOf<'redeemEnrollment'>> {
    return this.call('redeemEnrollment', {}, body, undefined, 'json', options);
  }

  /** Who the presented key is. (GET /v1/auth/me) */
  whoami(options?: T.CallOptions): Promise<T.ResponseOf<'whoami'>> {
    return this.call('whoami', {}, undefined, undefined, 'json', options);
  }

  /** The categories this agent may send in (MCP list_categories). (GET /v1/categories) */
  listCategories(options?: T.CallOptions): Promise<T.ResponseOf<'listCategories'>> {
    return this.call('listCategories', {}, undefined, undefined, 'json', options);
  }

  /** One category. (GET /v1/categories/{category_id}) */
  getCategory(category_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getCategory'>> {
    return this.call('getCategory', { category_id }, undefined, undefined, 'json', options);
  }

  /** Queued drafts of the category against the rules high-water. (GET /v1/categories/{category_id}/backlog-status) */
  getBacklogStatus(category_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getBacklogStatus'>> {
    return this.call('getBacklogStatus', { category_id }, undefined, undefined, 'json', options);
  }

  /** The contact list of an inbox, oldest first. (GET /v1/contacts) */
  listContacts(query?: T.QueryOf<'listContacts'>, options?: T.CallOptions): Promise<T.ResponseOf<'listContacts'>> {
    return this.call('listContacts', {}, undefined, query, 'json', options);
  }

  /** Add an allow or block entry to an inbox's contact list. (POST /v1/contacts) */
  addContact(body: T.BodyOf<'addContact'>, options?: T.CallOptions): Promise<T.ResponseOf<'addContact'>> {
    return this.call('addContact', {}, body, undefined, 'json', options);
  }

  /** Remove a contact list entry. (DELETE /v1/contacts/{contact_id}) */
  removeContact(contact_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'removeContact'>> {
    return this.call('removeContact', { contact_id }, undefined, undefined, 'json', options);
  }

  /** The project's suppression list, oldest first. (GET /v1/suppression) */
  listSuppressions(query?: T.QueryOf<'listSuppressions'>, options?: T.CallOptions): Promise<T.ResponseOf<'listSuppressions'>> {
    return this.call('listSuppressions', {}, undefined, query, 'json', options);
  }

  /** Suppress an address for the whole project. (POST /v1/suppression) */
  suppressEmail(body: T.BodyOf<'suppressEmail'>, options?: T.CallOptions): Promise<T.ResponseOf<'suppressEmail'>> {
    return this.call('suppressEmail', {}, body, undefined, 'json', options);
  }

  /** Whether an address is suppressed in the project. (GET /v1/suppression/{email}) */
  checkSuppression(email: string, options?: T.CallOptions): Promise<T.ResponseOf<'checkSuppression'>> {
    return this.call('checkSuppression', { email }, undefined, undefined, 'json', options);
  }

  /** Lift a suppression the project's agents added. (DELETE /v1/suppression/{email}) */
  unsuppressEmail(email: string, options?: T.CallOptions): Promise<T.ResponseOf<'unsuppressEmail'>> {
    return this.call('unsuppressEmail', { email }, undefined, undefined, 'json', options);
  }

  /** The custom domains of the key's project, oldest first. (GET /v1/domains) */
  listDomains(options?: T.CallOptions): Promise<T.ResponseOf<'listDomains'>> {
    return this.call('listDomains', {}, undefined, undefined, 'json', options);
  }

  /** Onboard a domain the caller controls; answers the DNS records to publish. (POST /v1/domains) */
  createDomain(body: T.BodyOf<'createDomain'>, options?: T.CallOptions): Promise<T.ResponseOf<'createDomain'>> {
    return this.call('createDomain', {}, body, undefined, 'json', options);
  }

  /** Ask to buy a domain; a self-hosted deployment has no registrar (`503 not_configured`). (POST /v1/domains/purchase-requests) */
  requestDomainPurchase(body: T.BodyOf<'requestDomainPurchase'>, options?: T.CallOptions): Promise<T.ResponseOf<'requestDomainPurchase'>> {
    return this.call('requestDomainPurchase', {}, body, undefined, 'json', options);
  }

  /** One domain, its records and the result of each record's last check. (GET /v1/domains/{domain}) */
  getDomain(domain: string, options?: T.CallOptions): Promise<T.ResponseOf<'getDomain'>> {
    return this.call('getDomain', { domain }, undefined, undefined, 'json', options);
  }

  /** Offboard a domain. (DELETE /v1/domains/{domain}) */
  deleteDomain(domain: string, query?: T.QueryOf<'deleteDomain'>, options?: T.CallOptions): Promise<T.ResponseOf<'deleteDomain'>> {
    return this.call('deleteDomain', { domain }, undefined, query, 'json', options);
  }

  /** Look each record up now and record its result. (POST /v1/domains/{domain}/verify) */
  verifyDomain(domain: string, options?: T.CallOptions): Promise<T.ResponseOf<'verifyDomain'>> {
    return this.call('verifyDomain', { domain }, undefined, undefined, 'json', options);
  }

  /** Server-sent events, live, with replay from a resume id. (GET /v1/events/stream) */
  streamEvents(query?: T.QueryOf<'streamEvents'>, options?: T.CallOptions): Promise<Response> {
    return this.call('streamEvents', {}, undefined, query, 'response', options);
  }

  /** The inboxes the key reaches, oldest first. (GET /v1/inboxes) */
  listInboxes(query?: T.QueryOf<'listInboxes'>, options?: T.CallOptions): Promise<T.ResponseOf<'listInboxes'>> {
    return this.call('listInboxes', {}, undefined, query, 'json', options);
  }

  /** Create an inbox with an address on the service's domain or a verified custom domain. (POST /v1/inboxes) */
  createInbox(body?: T.BodyOf<'createInbox'>, options?: T.CallOptions): Promise<T.ResponseOf<'createInbox'>> {
    return this.call('createInbox', {}, body, undefined, 'json', options);
  }

  /** One inbox, with its effective review policy. (GET /v1/inboxes/{inbox_id}) */
  getInbox(inbox_id: string, query?: T.QueryOf<'getInbox'>, options?: T.CallOptions): Promise<T.ResponseOf<'getInbox'>> {
    return this.call('getInbox', { inbox_id }, undefined, query, 'json', options);
  }

  /** Change the inbox's rolling 24-hour recipient limit. (PATCH /v1/inboxes/{inbox_id}) */
  updateInbox(inbox_id: string, body: T.BodyOf<'updateInbox'>, options?: T.CallOptions): Promise<T.ResponseOf<'updateInbox'>> {
    return this.call('updateInbox', { inbox_id }, body, undefined, 'json', options);
  }

  /** Delete the inbox for good, with its mail. (DELETE /v1/inboxes/{inbox_id}) */
  deleteInbox(inbox_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'deleteInbox'>> {
    return this.call('deleteInbox', { inbox_id }, undefined, undefined, 'json', options);
  }

  /** Messages of one folder, newest first. (GET /v1/inboxes/{inbox_id}/messages) */
  listMessages(inbox_id: string, query?: T.QueryOf<'listMessages'>, options?: T.CallOptions): Promise<T.ResponseOf<'listMessages'>> {
    return this.call('listMessages', { inbox_id }, undefined, query, 'json', options);
  }

  /** One message. (GET /v1/messages/{message_id}) */
  getMessage(message_id: string, query?: T.QueryOf<'getMessage'>, options?: T.CallOptions): Promise<T.ResponseOf<'getMessage'>> {
    return this.call('getMessage', { message_id }, undefined, query, 'json', options);
  }

  /** The message exactly as received, as message/rfc822. (GET /v1/inboxes/{inbox_id}/messages/{message_id}/raw) */
  getMessageRaw(inbox_id: string, message_id: string, options?: T.CallOptions): Promise<Uint8Array> {
    return this.call('getMessageRaw', { inbox_id, message_id }, undefined, undefined, 'bytes', options);
  }

  /** Every non-body MIME part of the message, in MIME order, inline parts included. (GET /v1/inboxes/{inbox_id}/messages/{message_id}/attachments) */
  listAttachments(inbox_id: string, message_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'listAttachments'>> {
    return this.call('listAttachments', { inbox_id, message_id }, undefined, undefined, 'json', options);
  }

  /** One part's decoded content, as a file to save. (GET /v1/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}) */
  getAttachment(inbox_id: string, message_id: string, attachment_id: string, options?: T.CallOptions): Promise<Uint8Array> {
    return this.call('getAttachment', { inbox_id, message_id, attachment_id }, undefined, undefined, 'bytes', options);
  }

  /** Full-text search over subject, addresses and body, ranked. (GET /v1/inboxes/{inbox_id}/messages/search) */
  searchMessages(inbox_id: string, query?: T.QueryOf<'searchMessages'>, options?: T.CallOptions): Promise<T.ResponseOf<'searchMessages'>> {
    return this.call('searchMessages', { inbox_id }, undefined, query, 'json', options);
  }

  /** Mark messages seen or unseen and move them between folders, all or nothing. (PATCH /v1/inboxes/{inbox_id}/messages/batch) */
  batchUpdateMessages(inbox_id: string, body: T.BodyOf<'batchUpdateMessages'>, options?: T.CallOptions): Promise<T.ResponseOf<'batchUpdateMessages'>> {
    return this.call('batchUpdateMessages', { inbox_id }, body, undefined, 'json', options);
  }

  /** Wait for the next inbound message that matches, optionally extracting a code or link. (POST /v1/inboxes/{inbox_id}/wait) */
  waitForEmail(inbox_id: string, body?: T.BodyOf<'waitForEmail'>, options?: T.CallOptions): Promise<T.ResponseOf<'waitForEmail'>> {
    return this.call('waitForEmail', { inbox_id }, body, undefined, 'json', options);
  }

  /** A reviewer agent's decision on a review routed to it. (POST /v1/reviews/{review_id}/decision) */
  decideReview(review_id: string, body: T.BodyOf<'decideReview'>, options?: T.CallOptions): Promise<T.ResponseOf<'decideReview'>> {
    return this.call('decideReview', { review_id }, body, undefined, 'json', options);
  }

  /** The work items routed to the caller's agent and waiting on it, oldest first. (GET /v1/reviewer/queue) */
  getReviewerQueue(query?: T.QueryOf<'getReviewerQueue'>, options?: T.CallOptions): Promise<T.ResponseOf<'getReviewerQueue'>> {
    return this.call('getReviewerQueue', {}, undefined, query, 'json', options);
  }

  /** The caller's work items as server-sent events (links with `transport` `sse`). (GET /v1/reviewer/stream) */
  streamReviewerWork(query?: T.QueryOf<'streamReviewerWork'>, options?: T.CallOptions): Promise<Response> {
    return this.call('streamReviewerWork', {}, undefined, query, 'response', options);
  }

  /** Drain the durable review event queue. (GET /v1/reviews/events) */
  listReviewEvents(query?: T.QueryOf<'listReviewEvents'>, options?: T.CallOptions): Promise<T.ResponseOf<'listReviewEvents'>> {
    return this.call('listReviewEvents', {}, undefined, query, 'json', options);
  }

  /** Long-poll the durable review event queue. (GET /v1/reviews/events/wait) */
  waitForReviewEvent(query?: T.QueryOf<'waitForReviewEvent'>, options?: T.CallOptions): Promise<T.ResponseOf<'waitForReviewEvent'>> {
    return this.call('waitForReviewEvent', {}, undefined, query, 'json', options);
  }

  /** Acknowledge review events, per review. (POST /v1/reviews/events/ack) */
  ackReviewEvents(body: T.BodyOf<'ackReviewEvents'>, options?: T.CallOptions): Promise<T.ResponseOf<'ackReviewEvents'>> {
    return this.call('ackReviewEvents', {}, body, undefined, 'json', options);
  }

  /** The reviews this agent composed, newest first. (GET /v1/reviews) */
  listReviews(query?: T.QueryOf<'listReviews'>, options?: T.CallOptions): Promise<T.ResponseOf<'listReviews'>> {
    return this.call('listReviews', {}, undefined, query, 'json', options);
  }

  /** One review, with the verbs the composer may use now. (GET /v1/reviews/{review_id}) */
  getReview(review_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getReview'>> {
    return this.call('getReview', { review_id }, undefined, undefined, 'json', options);
  }

  /** Every reviewer decision note, edit diff and chat message of the review, oldest first. (GET /v1/reviews/{review_id}/feedback) */
  getReviewFeedback(review_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getReviewFeedback'>> {
    return this.call('getReviewFeedback', { review_id }, undefined, undefined, 'json', options);
  }

  /** Withdraw the draft (also the one close-out of a failed send). (POST /v1/reviews/{review_id}/cancel) */
  cancelReview(review_id: string, body?: T.BodyOf<'cancelReview'>, options?: T.CallOptions): Promise<T.ResponseOf<'cancelReview'>> {
    return this.call('cancelReview', { review_id }, body, undefined, 'json', options);
  }

  /** Mark the draft as current with the rules high-water, unchanged. (POST /v1/reviews/{review_id}/restamp) */
  restampReview(review_id: string, body: T.BodyOf<'restampReview'>, options?: T.CallOptions): Promise<T.ResponseOf<'restampReview'>> {
    return this.call('restampReview', { review_id }, body, undefined, 'json', options);
  }

  /** Submit a new revision of the draft. (POST /v1/reviews/{review_id}/revisions) */
  reviseReview(review_id: string, body: T.BodyOf<'reviseReview'>, options?: T.CallOptions): Promise<T.ResponseOf<'reviseReview'>> {
    return this.call('reviseReview', { review_id }, body, undefined, 'json', options);
  }

  /** Send a chat message to the reviewer. (POST /v1/reviews/{review_id}/chat) */
  chatReview(review_id: string, body: T.BodyOf<'chatReview'>, options?: T.CallOptions): Promise<T.ResponseOf<'chatReview'>> {
    return this.call('chatReview', { review_id }, body, undefined, 'json', options);
  }

  /** The writing rules that apply to this agent, in ladder order, and the rules high-water. (GET /v1/rules) */
  getRules(query?: T.QueryOf<'getRules'>, options?: T.CallOptions): Promise<T.ResponseOf<'getRules'>> {
    return this.call('getRules', {}, undefined, query, 'json', options);
  }

  /** Propose a writing rule; a human activates it. (POST /v1/rules) */
  proposeRule(body: T.BodyOf<'proposeRule'>, options?: T.CallOptions): Promise<T.ResponseOf<'proposeRule'>> {
    return this.call('proposeRule', {}, body, undefined, 'json', options);
  }

  /** Send a new message through the Review Loop. (POST /v1/inboxes/{inbox_id}/send) */
  sendEmail(inbox_id: string, body: T.BodyOf<'sendEmail'>, options?: T.CallOptions): Promise<T.ResponseOf<'sendEmail'>> {
    return this.call('sendEmail', { inbox_id }, body, undefined, 'json', options);
  }

  /** Reply in a thread through the Review Loop. (POST /v1/inboxes/{inbox_id}/reply) */
  replyEmail(inbox_id: string, body: T.BodyOf<'replyEmail'>, options?: T.CallOptions): Promise<T.ResponseOf<'replyEmail'>> {
    return this.call('replyEmail', { inbox_id }, body, undefined, 'json', options);
  }

  /** Forward a message of the inbox through the Review Loop. (POST /v1/inboxes/{inbox_id}/messages/{message_id}/forward) */
  forwardEmail(inbox_id: string, message_id: string, body: T.BodyOf<'forwardEmail'>, options?: T.CallOptions): Promise<T.ResponseOf<'forwardEmail'>> {
    return this.call('forwardEmail', { inbox_id, message_id }, body, undefined, 'json', options);
  }

  /** Whether self-signup is open. (GET /v1/signup-status) */
  signupStatus(options?: T.CallOptions): Promise<T.ResponseOf<'signupStatus'>> {
    return this.call('signupStatus', {}, undefined, undefined, 'json', options);
  }

  /** Sign up for an inbox with an email address; a code is mailed there. (POST /v1/agent/sign-up) */
  signUp(body: T.BodyOf<'signUp'>, options?: T.CallOptions): Promise<T.ResponseOf<'signUp'>> {
    return this.call('signUp', {}, body, undefined, 'json', options);
  }

  /** Trade the mailed code for the durable agent key. (POST /v1/agent/verify) */
  verifySignup(body: T.BodyOf<'verifySignup'>, options?: T.CallOptions): Promise<T.ResponseOf<'verifySignup'>> {
    return this.call('verifySignup', {}, body, undefined, 'json', options);
  }

  /** List feedback records of the project, newest first. (GET /v1/projects/{project_id}/feedback) */
  listFeedback(project_id: string, query?: T.QueryOf<'listFeedback'>, options?: T.CallOptions): Promise<T.ResponseOf<'listFeedback'>> {
    return this.call('listFeedback', { project_id }, undefined, query, 'json', options);
  }

  /** File feedback about a problem, with evidence; a blocked outcome opens a support case. (POST /v1/projects/{project_id}/feedback) */
  submitFeedback(project_id: string, body: T.BodyOf<'submitFeedback'>, options?: T.CallOptions): Promise<T.ResponseOf<'submitFeedback'>> {
    return this.call('submitFeedback', { project_id }, body, undefined, 'json', options);
  }

  /** The reporting policy - whether automatic feedback is on, and the case reopen window. (GET /v1/projects/{project_id}/feedback/policy) */
  getReportingPolicy(project_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getReportingPolicy'>> {
    return this.call('getReportingPolicy', { project_id }, undefined, undefined, 'json', options);
  }

  /** A support case with its updates, oldest first. (GET /v1/projects/{project_id}/support-cases/{id}) */
  getSupportCase(project_id: string, id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getSupportCase'>> {
    return this.call('getSupportCase', { project_id, id }, undefined, undefined, 'json', options);
  }

  /** Reply to a support case as the customer, naming the newest update you answer. (POST /v1/projects/{project_id}/support-cases/{id}/replies) */
  replySupportCase(project_id: string, id: string, body: T.BodyOf<'replySupportCase'>, options?: T.CallOptions): Promise<T.ResponseOf<'replySupportCase'>> {
    return this.call('replySupportCase', { project_id, id }, body, undefined, 'json', options);
  }

  /** Threads of the inbox, most recently active first. (GET /v1/inboxes/{inbox_id}/threads) */
  listThreads(inbox_id: string, query?: T.QueryOf<'listThreads'>, options?: T.CallOptions): Promise<T.ResponseOf<'listThreads'>> {
    return this.call('listThreads', { inbox_id }, undefined, query, 'json', options);
  }

  /** A thread with every message, oldest first, each with both bodies. (GET /v1/inboxes/{inbox_id}/threads/{thread_id}) */
  getThread(inbox_id: string, thread_id: string, query?: T.QueryOf<'getThread'>, options?: T.CallOptions): Promise<T.ResponseOf<'getThread'>> {
    return this.call('getThread', { inbox_id, thread_id }, undefined, query, 'json', options);
  }

  /** The webhooks within the key's reach, oldest first; secrets redacted. (GET /v1/webhooks) */
  listWebhooks(options?: T.CallOptions): Promise<T.ResponseOf<'listWebhooks'>> {
    return this.call('listWebhooks', {}, undefined, undefined, 'json', options);
  }

  /** Register a webhook; the signing secret is in this response only. (POST /v1/webhooks) */
  registerWebhook(body: T.BodyOf<'registerWebhook'>, options?: T.CallOptions): Promise<T.ResponseOf<'registerWebhook'>> {
    return this.call('registerWebhook', {}, body, undefined, 'json', options);
  }

  /** One webhook; the secret redacted. (GET /v1/webhooks/{id}) */
  getWebhook(id: string, options?: T.CallOptions): Promise<T.ResponseOf<'getWebhook'>> {
    return this.call('getWebhook', { id }, undefined, undefined, 'json', options);
  }

  /** Change the URL, events, inbox or active flag; omitted fields are unchanged. (PATCH /v1/webhooks/{id}) */
  updateWebhook(id: string, body: T.BodyOf<'updateWebhook'>, options?: T.CallOptions): Promise<T.ResponseOf<'updateWebhook'>> {
    return this.call('updateWebhook', { id }, body, undefined, 'json', options);
  }

  /** Delete a webhook, with its delivery history; pending retries stop. (DELETE /v1/webhooks/{id}) */
  deleteWebhook(id: string, options?: T.CallOptions): Promise<T.ResponseOf<'deleteWebhook'>> {
    return this.call('deleteWebhook', { id }, undefined, undefined, 'json', options);
  }

  /** Deliveries of the webhook, newest first, each with every attempt. (GET /v1/webhooks/{id}/deliveries) */
  listWebhookDeliveries(id: string, query?: T.QueryOf<'listWebhookDeliveries'>, options?: T.CallOptions): Promise<T.ResponseOf<'listWebhookDeliveries'>> {
    return this.call('listWebhookDeliveries', { id }, undefined, query, 'json', options);
  }

  /** Send a delivery's event again, as a new delivery with the same event id and a fresh signature. (POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver) */
  redeliverWebhook(id: string, delivery_id: string, options?: T.CallOptions): Promise<T.ResponseOf<'redeliverWebhook'>> {
    return this.call('redeliverWebhook', { id, delivery_id }, undefined, undefined, 'json', options);
  }

  /** Replace the signing secret; the new one is in this response only. (POST /v1/webhooks/{id}/rotate-secret) */
  rotateWebhookSecret(id: string, options?: T.CallOptions): Promise<T.ResponseOf<'rotateWebhookSecret'>> {
    return this.call('rotateWebhookSecret', { id }, undefined, undefined, 'json', options);
  }
}
