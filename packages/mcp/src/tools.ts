// The MCP tools: one per agent-plane verb, each calling one SDK method. Names are the contract's;
// descriptions tell an agent when to use the tool and how to recover from its errors.

/** Sent with every call the MCP server makes, so support feedback records that it came over MCP. */
export const MCP_HEADERS = { 'x-client-transport': 'mcp' };

export type ToolSpec = { name: string; operationId: string; description: string };

export const TOOLS: ToolSpec[] = [
  { name: 'redeem_enrollment', operationId: 'redeemEnrollment', description: 'Redeem an enrollment token (pk_enroll_...) for this agent\'s own key. Idempotent on agent_handle: the same handle always gets the same agent. The returned agent_key is shown once; store it.' },
  { name: 'signup_status', operationId: 'signupStatus', description: 'Whether this service lets an agent with no key sign itself up (enabled). When false, ask a person for an enrollment token (redeem_enrollment) instead.' },
  { name: 'sign_up', operationId: 'signUp', description: 'Get an inbox with no key: give the email address of the person you work for (email; optional agent_handle, display_name). A 6-digit code is mailed to that address, valid 15 minutes; ask the person for it, then call verify_signup. Over stdio this server then uses the temporary key, which can only verify. Signing up again with the same email sends a new code (use it after otp_send_failed, an expired code or 5 wrong codes). 403 signup_disabled: sign-up is paused here.' },
  { name: 'verify_signup', operationId: 'verifySignup', description: 'Finish sign_up with the 6-digit code from the mail (code). Returns your durable agent_key (shown once; store it), the inbox_address and quickstart calls (read_messages, get_message, wait_for_email). Over stdio this server carries on with the durable key. A wrong code says tries_left; after 5 the code locks and sign_up must be called again.' },
  { name: 'whoami', operationId: 'whoami', description: 'Show the org, project, agent, key ceiling and permissions of the key in use, and what it may still send (sending: recipients left today and this month under the plan, and today under its enrollment key; -1 is unlimited).' },
  { name: 'create_inbox', operationId: 'createInbox', description: 'Create an email inbox (an address that can receive and send). Pass client_id to make a retry safe.' },
  { name: 'list_inboxes', operationId: 'listInboxes', description: 'List the inboxes this key can reach, with cursor paging (limit, cursor).' },
  { name: 'get_inbox', operationId: 'getInbox', description: 'Get one inbox by id or address, including effective_review_policy (whether sends need human review, and why).' },
  { name: 'send_email', operationId: 'sendEmail', description: 'Send a new email from an inbox. Every send becomes a review record: under require_review you must give intent.summary (8-200 chars: who, what, why) and get 202 queued_for_review with a review id (rr_...); follow it with wait_for_review_event. If you get intent_required, retry with the retry_with example filled in. Over the plan daily or monthly cap, or the enrollment key daily sending allowance, it is 403 quota_exceeded with reason and next_reset_at: wait for the reset (whoami shows what is left).' },
  { name: 'reply_email', operationId: 'replyEmail', description: 'Reply within a thread (thread_id); the newest message of the thread is answered. Same review rules as send_email. expected_last_message_id guards against replying to a thread that moved on (409).' },
  { name: 'forward_email', operationId: 'forwardEmail', description: 'Forward a received message (with its attachments) to new recipients. Same review rules as send_email.' },
  { name: 'read_messages', operationId: 'listMessages', description: 'List messages in an inbox folder (default INBOX), newest first, with cursor paging.' },
  { name: 'get_message', operationId: 'getMessage', description: 'Get one message with text, html, extracted_text and extracted_html (null when absent). format: text|html|auto narrows the bodies (default both); variant: source (as sent) or extracted (quoted history and signatures removed).' },
  { name: 'get_message_raw', operationId: 'getMessageRaw', description: 'Download a message\'s raw MIME source (message/rfc822), base64-encoded.' },
  { name: 'search', operationId: 'searchMessages', description: 'Full-text search an inbox (q in web-search syntax) with filters from, to, subject, folder, after, before, has_attachment, authenticated (the sender\'s domain passed DMARC or an aligned DKIM check); ranked, paged.' },
  { name: 'batch_update_messages', operationId: 'batchUpdateMessages', description: 'Mark up to 100 messages seen/unseen or move them between folders in one call.' },
  { name: 'list_threads', operationId: 'listThreads', description: 'List conversation threads of an inbox, most recent first.' },
  { name: 'get_thread', operationId: 'getThread', description: 'Get a thread with its messages oldest first and last_message_id (use it as expected_last_message_id when replying).' },
  { name: 'list_attachments', operationId: 'listAttachments', description: 'List a message\'s attachments (including inline images) with filename, content type and size.' },
  { name: 'get_attachment', operationId: 'getAttachment', description: 'Download one attachment, base64-encoded with its size; list_attachments gives its declared content type and filename.' },
  { name: 'wait_for_email', operationId: 'waitForEmail', description: 'Wait for the next matching message to arrive (from, subject_contains; since defaults to now, so older mail is never returned). With extract=code or extract=link it returns the one-time code or verification link. Answers timed_out: true after timeout_seconds (max 120).' },
  { name: 'register_webhook', operationId: 'registerWebhook', description: 'Register a URL to receive message.received events (and, when events names them, message.delivered, message.bounced, message.complained, message.delayed about mail the inbox sent), signed with HMAC-SHA256 (X-Service-Signature). The secret is returned once.' },
  { name: 'update_webhook', operationId: 'updateWebhook', description: 'Change a webhook\'s url, events, inbox filter or active flag.' },
  { name: 'list_webhooks', operationId: 'listWebhooks', description: 'List the webhooks of this agent, secrets redacted, with active flag and failure counts.' },
  { name: 'get_webhook', operationId: 'getWebhook', description: 'Get one webhook (secret redacted), with its failure count.' },
  { name: 'delete_webhook', operationId: 'deleteWebhook', description: 'Delete a webhook; deliveries to its URL stop at once.' },
  { name: 'list_webhook_deliveries', operationId: 'listWebhookDeliveries', description: 'List a webhook\'s delivery attempts with status codes and next retry times.' },
  { name: 'redeliver_webhook', operationId: 'redeliverWebhook', description: 'Send one delivery again (same event id, fresh signature).' },
  { name: 'rotate_webhook_secret', operationId: 'rotateWebhookSecret', description: 'Rotate a webhook\'s signing secret; the new one is returned once and both are signed for 24 hours.' },
  { name: 'add_contact', operationId: 'addContact', description: 'Add an allow or block entry (email or domain) to an inbox\'s contact list. Any allow entry turns on allowlist mode: sends go only to allowed recipients.' },
  { name: 'list_contacts', operationId: 'listContacts', description: 'List the allow and block entries of an inbox\'s contact list.' },
  { name: 'remove_contact', operationId: 'removeContact', description: 'Remove an allow or block entry from an inbox\'s contact list by its id.' },
  { name: 'check_suppression', operationId: 'checkSuppression', description: 'Check whether an address is suppressed (opted out); sends to it are refused with recipient_suppressed.' },
  { name: 'list_suppressions', operationId: 'listSuppressions', description: 'List suppressed addresses of the project.' },
  { name: 'suppress_email', operationId: 'suppressEmail', description: 'Suppress an address: no further mail to it from this project.' },
  { name: 'unsuppress_email', operationId: 'unsuppressEmail', description: 'Lift a suppression so mail to the address is allowed again (only when the person asked for it).' },
  { name: 'list_domains', operationId: 'listDomains', description: 'List the custom domains of this project (key with domain:manage), each with its status (pending, verified, degraded) and the records to publish with the result of their last check.' },
  { name: 'onboard_domain', operationId: 'createDomain', description: 'Onboard a domain the person you work for controls (domain, key with domain:manage). Returns the DNS records to publish (ownership TXT, MX, SPF, DKIM, DMARC suggestion); then call verify_domain. 409 domain_unavailable: another account verified it.' },
  { name: 'get_domain', operationId: 'getDomain', description: 'Get one custom domain (by name or dom_ id) with its records and the result of each record\'s last check.' },
  { name: 'verify_domain', operationId: 'verifyDomain', description: 'Look the domain\'s DNS records up now: each gets pass, fail or temperror; all required passing makes it verified, after which inboxes can be created on it (create_inbox with domain).' },
  { name: 'offboard_domain', operationId: 'deleteDomain', description: 'Offboard a custom domain. Refused (409) while inboxes use it unless delete_inboxes=true, which deletes them and their mail too: confirm with the person first.' },
  { name: 'request_domain_purchase', operationId: 'requestDomainPurchase', description: 'Ask to buy a domain (commerce:request). This deployment has no registrar: the answer is 503 not_configured; register the domain elsewhere and onboard_domain it.' },
  { name: 'list_reviews', operationId: 'listReviews', description: 'List this agent\'s review records, filtered by state or inbox.' },
  { name: 'get_review', operationId: 'getReview', description: 'Get a review: state, revision, version, the draft, feedback, allowed_actions (the verbs legal now), mode_reason (why it waits: loop_suspected and sender_health always need a human), and delivery: what became of the sent mail per recipient (delivered, delayed, bounced hard or soft, complained). A bounced or complained recipient is suppressed: do not write to it again.' },
  { name: 'get_review_feedback', operationId: 'getReviewFeedback', description: 'Every reviewer decision, feedback and edit diff of a review, oldest first. Read it before revising.' },
  { name: 'cancel_review', operationId: 'cancelReview', description: 'Withdraw a draft, or close out a failed send (the only legal step after review.failed).' },
  { name: 'restamp_review', operationId: 'restampReview', description: 'Mark a queued or rejected draft as checked against the current rules without changing it (parent_revision = current revision).' },
  { name: 'revise_review', operationId: 'reviseReview', description: 'Submit a new revision of a draft (to, subject, text, intent) with parent_revision = the current revision. On 409 stale: re-read the review and feedback, re-apply, retry (at most 3 times).' },
  { name: 'chat_review', operationId: 'chatReview', description: 'Send a chat message to the reviewer of a draft (in_review or chatting).' },
  { name: 'list_review_events', operationId: 'listReviewEvents', description: 'Drain the durable review event queue: events after your acked cursor. An event counts as handled only once you ack it.' },
  { name: 'wait_for_review_event', operationId: 'waitForReviewEvent', description: 'Long-poll for the next review events (review.sent, review.rejected, ..., and message.bounced, message.complained, message.delayed when a sent mail comes back). Ack each with ack_review_event once handled.' },
  { name: 'get_rules', operationId: 'getRules', description: 'Read the writing rules to follow before composing: active rules in ladder order (hard first, then project and per-agent over org, by priority), with category_id adding that category\'s rules, and rules_version (send it as rules_version when revising; 409 born_stale means re-read the rules).' },
  { name: 'propose_rule', operationId: 'proposeRule', description: 'Propose a writing rule learned from reviewer feedback (rule_text, at most 2000 chars; scope general or category with category_id). It stays proposed until a human activates it.' },
  { name: 'list_categories', operationId: 'listCategories', description: 'List the categories you may send in (the project\'s shared ones and your own private ones) with their rung: supervised (every send reviewed), auto_notify or autonomous (sends go out on their own unless a gate holds them). Pass a category\'s id as category_id on send_email; review.mode_reason says why a send was held or released.' },
  { name: 'get_category', operationId: 'getCategory', description: 'Get one category: rung, pinned, clean_approvals and drift_count (the runs that graduate or demote it), and its risk override.' },
  { name: 'get_backlog_status', operationId: 'getBacklogStatus', description: 'How many of your category\'s queued drafts were composed under the current rules (current_enough) and how many need a redraft (needs_redraft) against rules_version; restamp or revise the stale ones.' },
  { name: 'ack_review_event', operationId: 'ackReviewEvents', description: 'Ack review events: acks [{review_id, through_seq}] (and broadcast_ids). Monotonic and idempotent.' },
  { name: 'get_reviewer_queue', operationId: 'getReviewerQueue', description: 'For a reviewer agent (key with review:act): the work items routed to you and waiting, oldest first. Each carries the review, its draft and intent, the thread\'s last messages, the feedback so far and allowed_actions. Decide each with decide_review.' },
  { name: 'decide_review', operationId: 'decideReview', description: 'For a reviewer agent (key with review:act): decide a review routed to you. action: open, approve, edit (text and/or subject), reject (feedback), chat (message), hand_back (feedback for the composer; after max_hops the human takes over). Pass parent_revision = the review\'s revision. Use only verbs in allowed_actions; 404 means the review is no longer yours.' },
  { name: 'report_problem', operationId: 'submitFeedback', description: 'Report a problem you cannot work around, with evidence: client_id (a new UUID; reuse it only to retry), category, user_intent (what you were trying to do), observed_behavior, expected_behavior, outcome (blocked opens a support case a person follows), attempts [{operation, http_status, error_code, summary}], resource_refs [{type, id}]. Secrets in the text are redacted before storage (named in redacted_fields). Filing the same evidence again raises repeat_count. Never resend an email because you reported a problem.' },
  { name: 'list_feedback', operationId: 'listFeedback', description: 'List the feedback you filed in a project (project_id), newest first, with linked_cases (id, status) to follow with get_support_case.' },
  { name: 'get_support_case', operationId: 'getSupportCase', description: 'Read a support case (project_id, id): status (received, working, waiting_on_customer, resolved) and its updates with their sequence. When it is waiting_on_customer, answer with reply_support_case.' },
  { name: 'reply_support_case', operationId: 'replySupportCase', description: 'Reply to a support case: body, client_id (new UUID) and sequence = the newest update\'s sequence you answer. reply_context_changed: read latest_update, rewrite and resend (your text is in unsent_text). reply_already_pending: wait for staff. reply_workflow_required: the case is closed; report_problem again.' },
];

/** Agent-plane operations with no tool, and why. */
export const NOT_TOOLS: Record<string, string> = {
  streamEvents: 'a long-lived SSE stream; MCP clients use wait_for_email and wait_for_review_event instead',
  deleteInbox: 'permanent and destructive, and not in the contract\'s MCP tool list: an inbox is deleted through the REST API or the SDK (deleteInbox) by a key holding mailbox:delete',
  updateInbox: 'the recipient limit is a quota setting held by keys with mailbox:quota, not in the contract\'s MCP tool list; it is changed through the REST API or the SDK (updateInbox)',
  getReportingPolicy: 'read by the SDK before it files automatic feedback; an agent files with report_problem',
  streamReviewerWork: 'a long-lived SSE stream; MCP reviewers read get_reviewer_queue instead',
};

/** Tools the contract names whose agent-plane verbs this service does not have yet. */
export const PENDING_TOOLS: Record<string, string> = {};
