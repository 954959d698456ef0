// Generated from the OpenAPI document by `npm run generate -w @agent-inbox/sdk`. Do not edit.
export interface paths {
    "/v1/admin/claims": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Self-signups the caller may claim - verified and unclaimed, made with the caller's email.
         * @description Lists the sign-ups whose normalized email equals the session's email, once their agent has
         *     verified the code, that nobody has claimed yet. The session token must carry `email_verified:
         *     true` (the development identity provider, `agent-inbox console-token --email`, always does);
         *     otherwise `403` (`error: forbidden`, naming `email_verified`).
         */
        get: operations["adminListClaims"];
        put?: never;
        /**
         * Claim a self-signup - the caller becomes an owner of the org its agent created.
         * @description The claim binds to the session's verified email, which must equal the sign-up's normalized
         *     email: another email, or a session whose email is not verified, is `403` (`error: forbidden`)
         *     and nothing changes. A sign-up whose code is not verified yet is `409`; an unknown id `404`.
         *     The first claim answers `201`; claiming it again answers `200` with the same claim.
         */
        post: operations["adminClaimSignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * An inbox's messages for a console member, newest first, searchable.
         * @description Without `q`, the newest messages (of `folder`, when given); with `q`, ranked full-text
         *     matches, with the syntax of the agent plane's search. Entries carry no bodies.
         */
        get: operations["adminListMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** One message, with its text, html, headers' fields and attachments. */
        get: operations["adminGetMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/messages/{message_id}/html": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * The message's html as an inert document, for the console's sandboxed frame.
         * @description The html part as sent, served under `Content-Security-Policy: sandbox allow-popups
         *     allow-popups-to-escape-sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:`:
         *     no script runs, no form posts, nothing is fetched (remote images, fonts and CSS `url()`s
         *     included), and links open outside, in a new window. With `remote_images=true` images may
         *     also load over http and https, the human having asked. Framed only by this origin; an
         *     message with no html part is `404`.
         */
        get: operations["adminGetMessageHtml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/messages/{message_id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /** The message exactly as received (message/rfc822), as a download. */
        get: operations["adminGetMessageRaw"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
                attachment_id: string;
            };
            cookie?: never;
        };
        /** One part's decoded content as a download, served as the agent plane serves it. */
        get: operations["adminGetAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/threads/{thread_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                thread_id: string;
            };
            cookie?: never;
        };
        /**
         * A thread with every message, oldest first, for a console member.
         * @description The conversation a review's draft belongs to (its `draft.thread_id`), as the agent plane's
         *     `getThread` reads it: each message with both bodies; the html is read through the
         *     message's own `/html`, which serves it inert.
         */
        get: operations["adminGetThread"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /** The org's members - one row per membership (org-wide, or in one project). */
        get: operations["adminListMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                user_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member from the org, with every membership they hold in it (owners and admins).
         * @description Only an owner may remove an owner (`403`); the org's last owner cannot be removed (`409`,
         *     `errors[0].code` `last_owner`). A member may be removed by themselves (leaving), under the
         *     same rules.
         */
        delete: operations["adminRemoveMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's org-wide role (owners and admins).
         * @description Only an owner may make someone owner or change an owner's role (`403`, `error: forbidden`).
         *     Demoting the org's last owner is `409` (`error: conflict`, `errors[0].code` `last_owner`):
         *     an org always keeps an owner. A user with no org-wide membership is `404`.
         */
        patch: operations["adminChangeMemberRole"];
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /** The org's invitations, newest first, without tokens (owners and admins). */
        get: operations["adminListInvitations"];
        put?: never;
        /**
         * Invite a person by email with a role; the token is shown once and mailed to them.
         * @description `role` defaults to `member`; only an owner may invite an owner (`403`). `expires_in_hours`
         *     defaults to 168 (7 days). The token (`pk_invite_<id>_<secret>`) is in this response only,
         *     and is mailed to `email` from `SYSTEM_FROM` as system mail, by the route approved mail takes
         *     (internal delivery, the `SMTP_URL` relay, or the local outbox); only its SHA-256 is stored.
         *     A mail the relay does not take leaves the invitation in place with `mailed: false`: pass the
         *     token on another way.
         */
        post: operations["adminCreateInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/invitations/{invitation_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                invitation_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an invitation not accepted yet; its token stops working (owners and admins). */
        delete: operations["adminRevokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/invitations/{invitation_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                invitation_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an invitation again with a fresh token, shown once and mailed (owners and admins).
         * @description Only the token's digest is stored, so a resend mints a new token for the same invitation:
         *     the previous token stops working, the expiry starts again at 168 hours (7 days), and the
         *     mail goes out as on creation (`mailed` says whether the route took it). A pending or expired
         *     invitation can be resent; an accepted or revoked one is `409` (`error: conflict`, the
         *     message naming which). Only an owner may resend an invitation to the owner role (`403`).
         */
        post: operations["adminResendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation as the signed-in user.
         * @description The accept binds to the session's verified email (`email_verified: true` in the token),
         *     which must equal the normalized invitation email; otherwise `403` (`error: forbidden`) and
         *     nothing changes. Accepting again as the same user answers the same (`200`). An unknown token
         *     is `404`; an expired or revoked invitation `409` (`errors[0].code` `expired` or `revoked`).
         *     Accepting never lowers a role the user already holds in the org. A new member past the
         *     plan's `member_limit` (free 3, developer 5, startup 25) is `403 quota_exceeded` with the quota
         *     figures (`reason: member_limit_exceeded`) and nothing changes; inviting into a full org is
         *     refused the same way.
         */
        post: operations["adminAcceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/review-settings": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * The account's default review policy and risk dial.
         * @description Account-wide (the org): every project of the org reads the same settings. A risk dial field
         *     never set has its default: `min_confidence` 0.9, `first_contact_gate` true,
         *     `drift_demote_after` 3, `canary_rate` 0.1, `graduate_min_approvals` 20,
         *     `graduate_min_age_hours` 72, `auto_send_cap_per_day` 100.
         */
        get: operations["adminGetReviewSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the default review policy or the risk dial (owner or admin).
         * @description Any subset; omitted fields are unchanged. Who may skip human review is an admin's choice.
         */
        patch: operations["adminUpdateReviewSettings"];
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/sender-health": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        /**
         * An inbox's sender health, and whether its new sends are held for it.
         * @description Counted over the inbox's latest 1,000 sends (one per recipient the relay or a hosted inbox took)
         *     since a human last cleared it: how many hard-bounced and how many were complained about. Past
         *     `SENDER_HEALTH_MAX_BOUNCE_RATE` (default 5%, over at least `SENDER_HEALTH_MIN_SENDS`, default 50)
         *     or `SENDER_HEALTH_MAX_COMPLAINT_RATE` (default 0.1%, over any number), `held` is true and every
         *     new send from the inbox waits for a human with `mode_reason: sender_health`, whatever its
         *     policy or category. The inbox is addressed by id or by address.
         */
        get: operations["adminGetSenderHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/sender-health/clear": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Clear an inbox's sender health (owner or admin); its new sends flow again.
         * @description The rates count only sends from now on. Sends already held with `sender_health` stay in review
         *     for a human to approve, edit or reject. The suppressions the bounces and complaints added stay.
         */
        post: operations["adminClearSenderHealth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an inbox of the project for good, with its mail (owner or admin).
         * @description The console form of `DELETE /v1/inboxes/{inbox_id}`, with the same effects, waits and
         *     answers: the inbox's mail, threads, files and webhooks removed, its live reviews cancelled
         *     (`cancelled_by: human`, `reason: inbox_deleted`), its id `404` for good, its address
         *     answering `550` and free for a new inbox. The inbox is addressed by id or by address.
         *     Idempotent on `Idempotency-Key`.
         */
        delete: operations["adminDeleteInbox"];
        options?: never;
        head?: never;
        /**
         * Set an inbox's review policy override or its 24-hour recipient limit (owner or admin).
         * @description `review_policy` overrides the account default for this inbox; `null` inherits it again.
         *     `recipient_limit_24h` is the rolling 24-hour recipient limit of sends from the inbox.
         *     The inbox is addressed by id or by address.
         */
        patch: operations["adminUpdateInbox"];
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * The human review queue, oldest first.
         * @description Every review of the project, oldest first (the order a queue is worked in), narrowed by
         *     `state` (one or several, comma-separated; the queue proper is
         *     `needs_review,in_review,chatting`), `inbox_id`, `agent_id` and `needs_reconciliation=true`
         *     (only sends parked with an unknown delivery outcome, which an operator resolves with
         *     `agent-inbox reconcile`). `allowed_actions` are the human reviewer's verbs.
         */
        get: operations["adminListReviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/reviews/{review_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        /** One review with its feedback, for the human reviewer. */
        get: operations["adminGetReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/reviews/{review_id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A human reviewer's decision.
         * @description `open` (needs_review → in_review), `approve` and `edit` (→ delivery with the composing
         *     agent's inbox as sender; `edit` replaces `text` and/or `subject` and records the diff in the
         *     feedback), `reject` (with optional `feedback`), `chat` (`message`; in_review → chatting),
         *     `cancel` (optional `feedback` as the reason; not on a failed send, which only its composer
         *     closes). `parent_revision`, when given, must be the current revision (else `409 stale`).
         *     Conflicts follow the review 409 taxonomy (see `Review`). The member's email is recorded with
         *     the feedback. Needs the `write` role.
         */
        post: operations["adminDecideReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * The project's live events for the console, with replay from a resume id.
         * @description The same stream as `GET /v1/events/stream` (ids, resume with `Last-Event-ID` or
         *     `last_event_id`, `types`, heartbeats), reaching every event of the project in the path: the
         *     web console keeps its review queue current with it. A member of another org gets `404`, never
         *     a stream.
         */
        get: operations["adminStreamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/machines/{kind}/{machine_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                kind: string;
                machine_id: string;
            };
            cookie?: never;
        };
        /**
         * A machine's persisted snapshot, for operators.
         * @description The snapshot, its row version and machine version, the state, every transition that led
         *     there (event, from, to, the actions it asked for) and the verbs legal now (for anyone), as
         *     `agent-inbox snapshot <id>` shows them; and `diagram`, the machine's definition (its
         *     states and every transition, generated from the machine), which the web console draws
         *     with the current state marked and the transitions taken highlighted. Kinds: `review`,
         *     `support_case`, `category` and `rule` (a rule of the org layer is found from any project
         *     of the org); `signup` answers `404` here in this version. An id of another project or
         *     org is `404`.
         */
        get: operations["adminGetMachine"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * Rule revisions of the project, newest first.
         * @description Every revision, superseded and retired ones included; filter by `status` or `lineage_id`. At most 1000.
         */
        get: operations["adminListRules"];
        put?: never;
        /**
         * Write a rule in the project.
         * @description A new lineage at `rev` 1, `author_kind` `human`, `active` unless `status` is `proposed`. Audited. Emits `rule.created`; an active rule raises the rules high-water of every project it applies to.
         */
        post: operations["adminCreateRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/rules/{rule_id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                rule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a rule: a new revision of its lineage.
         * @description Rules are append-only: the edit is a new revision (`rev` + 1, same `lineage_id`, `supersedes_id` the edited one) with the same status, and the edited revision becomes `superseded` (`rule.superseded`). Omitted fields keep their values. Only the newest revision of a lineage can be edited (`409 stale` otherwise); a retired rule is `409 conflict`.
         */
        post: operations["adminReviseRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/rules/{rule_id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                rule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a proposed rule.
         * @description Only a human activates a rule. `proposed` → `active`; raises the rules high-water. Any other status is `409 conflict` with `status` and the legal `allowed_action` entries in `errors[]`.
         */
        post: operations["adminActivateRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/rules/{rule_id}/retire": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                rule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retire a rule, or decline a proposal.
         * @description `active` or `proposed` → `retired`; retiring an active rule raises the rules high-water. Any other status is `409 conflict`.
         */
        post: operations["adminRetireRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/rules/audit": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * Human changes to the rules here, newest first.
         * @description One row per human change (create, revise, activate, retire, undo) with the rule before and after. At most `limit` rows (default 50, at most 100).
         */
        get: operations["adminListRuleAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/rules/audit/{udo_id}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                udo_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a human rule change.
         * @description The version recorded as `before` comes back as a forward restore revision of the lineage (with the status it had), or, when the row recorded a creation, the rule is retired. Emits `rule.undone`; the audit row is marked undone (`undone_at`, `undone_by`), and undoing it again is `409 conflict`. The undo is itself audited.
         */
        post: operations["adminUndoRuleChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /**
         * Rule revisions of the org layer (inherited by every project of the org), newest first.
         * @description Every revision, superseded and retired ones included; filter by `status` or `lineage_id`. At most 1000.
         */
        get: operations["adminListOrgRules"];
        put?: never;
        /**
         * Write a rule in the org layer (inherited by every project of the org).
         * @description A new lineage at `rev` 1, `author_kind` `human`, `active` unless `status` is `proposed`. Audited. Emits `rule.created`; an active rule raises the rules high-water of every project it applies to.
         */
        post: operations["adminCreateOrgRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/rules/{rule_id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                rule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit a rule: a new revision of its lineage.
         * @description Rules are append-only: the edit is a new revision (`rev` + 1, same `lineage_id`, `supersedes_id` the edited one) with the same status, and the edited revision becomes `superseded` (`rule.superseded`). Omitted fields keep their values. Only the newest revision of a lineage can be edited (`409 stale` otherwise); a retired rule is `409 conflict`.
         */
        post: operations["adminReviseOrgRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/rules/{rule_id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                rule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a proposed rule.
         * @description Only a human activates a rule. `proposed` → `active`; raises the rules high-water. Any other status is `409 conflict` with `status` and the legal `allowed_action` entries in `errors[]`.
         */
        post: operations["adminActivateOrgRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/rules/{rule_id}/retire": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                rule_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retire a rule, or decline a proposal.
         * @description `active` or `proposed` → `retired`; retiring an active rule raises the rules high-water. Any other status is `409 conflict`.
         */
        post: operations["adminRetireOrgRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/rules/audit": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /**
         * Human changes to the rules here, newest first.
         * @description One row per human change (create, revise, activate, retire, undo) with the rule before and after. At most `limit` rows (default 50, at most 100).
         */
        get: operations["adminListOrgRuleAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/rules/audit/{udo_id}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                udo_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a human rule change.
         * @description The version recorded as `before` comes back as a forward restore revision of the lineage (with the status it had), or, when the row recorded a creation, the rule is retired. Emits `rule.undone`; the audit row is marked undone (`undone_at`, `undone_by`), and undoing it again is `409 conflict`. The undo is itself audited.
         */
        post: operations["adminUndoOrgRuleChange"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/reviews/{review_id}/propose-rule": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                review_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn a reviewer's edit of a draft into a proposed rule.
         * @description What a reviewer corrected becomes a rule the agent reads next time: `rule_text` states the
         *     correction as a rule. The rule is created in the review's project, `proposed` (it joins the
         *     ladder, and raises the rules high-water, only when a human activates it), `author_kind`
         *     `human`, with `source_review_id` naming the review. Audited like any human rule; emits
         *     `rule.created`. `scope: category` without `category_id` takes the review's category. The
         *     review must have been edited (by a human or a reviewer agent): otherwise `409 conflict`
         *     with `errors[0] = {field: review_id, code: not_edited}`. A review of another project is
         *     `404`. `rule_text` is 1-2000 characters; unknown keys are `400` listing the accepted ones.
         */
        post: operations["adminProposeRuleFromReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /** The org's settings, with defaults for fields never set. */
        get: operations["adminGetOrgSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change any subset of the org's settings (owners and admins); omitted fields stay unchanged.
         * @description Where each setting applies:
         *     - `org_name`: the org's name (as `GET /v1/admin/orgs/{org_id}` shows it).
         *     - `default_domain`: the domain of new inboxes that name none; it must be a domain this
         *       service hosts (`INBOX_DOMAIN` or `FREE_INBOX_DOMAIN`), else `400` naming `default_domain`.
         *       Default: `INBOX_DOMAIN`. An inbox may still name `INBOX_DOMAIN` explicitly.
         *     - `default_mailbox_cap`: the `max_mailboxes` of new enrollment tokens issued without one
         *       (`null`: no cap). Tokens already issued keep theirs.
         *     - `default_onboarding_mode`: how the org means agents to join - `enrollment_token`
         *       (default: an operator issues enrollment tokens), `self_signup` (agents sign up on their
         *       own and the org is claimed), `invitation_only` (people are invited; agents get keys on
         *       the console). Recorded for the console; the service does not refuse a path by it.
         *     - `webhook_signing_prefix`: the version label of webhook signatures (default `v1`);
         *       recorded, signatures keep the `v1` scheme.
         *     - `x402_mode`: paid requests over HTTP 402 - `off` (default), `test` or `live`; recorded,
         *       as commerce requests are not built yet.
         *     - `early_access`: opt in to features before their release (default `false`); recorded.
         */
        patch: operations["adminUpdateOrgSettings"];
        trace?: never;
    };
    "/v1/admin/orgs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an org with a first project; the caller becomes its owner. */
        post: operations["adminCreateOrg"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the session belongs to, and the orgs and projects it may open.
         * @description The web console's first call after signing in. Each org the caller is a member of, with the
         *     caller's org-wide role (null when the memberships are per project) and the projects the caller
         *     may open: every project of the org for an org-wide member, else those with a membership.
         */
        get: operations["adminGetMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /** An org and the projects the caller may see. */
        get: operations["adminGetOrg"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a project in the org (owner or admin). */
        post: operations["adminCreateProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/agents": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** Agents of the project. */
        get: operations["adminListAgents"];
        put?: never;
        /** Create an agent; a handle already used in the project is 409. */
        post: operations["adminCreateAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/agents/{agent_id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                agent_id: string;
            };
            cookie?: never;
        };
        /** The agent's keys, without secrets. */
        get: operations["adminListAgentKeys"];
        put?: never;
        /**
         * Issue an API key for an existing active agent; the raw key is shown once.
         * @description `ceiling` picks the key's reach: `project` (default, `pk_agent_`), `org` (`pk_agent_org_`, an
         *     owner or admin of the whole org only; a project's admin is refused) or `inbox` (`pk_agent_inbox_`,
         *     needs `inbox_id` of an inbox of this agent). `permissions` defaults to the non-privileged set.
         *     The ceiling cannot be widened later. A key never carries more than its minter may do: each
         *     permission needs the console role that `Permission` lists for it (`x-granted-by`; a `member`
         *     may not grant `mailbox:delete`, `mailbox:quota` or `mailbox:credentials`), counted in this
         *     project, or org-wide for an org key; beyond that it is `403` (`error: forbidden`) naming each
         *     permission, and no key is made.
         *     An agent holds at most 20 working (unrevoked, unexpired) keys; issuing past that is 409
         *     (`error: conflict`) until one is revoked.
         */
        post: operations["adminCreateAgentKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/agents/{agent_id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                agent_id: string;
                key_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a key; requests with it are 401 from then on. */
        delete: operations["adminRevokeAgentKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/enrollment-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** Enrollment tokens of the project, without secrets. */
        get: operations["adminListEnrollmentTokens"];
        put?: never;
        /**
         * Issue an enrollment token; the raw token is shown once.
         * @description Its redemptions mint project keys holding `scopes` (the non-privileged set when omitted), so
         *     it is minted as a project key would be: each scope needs the console role that `Permission`
         *     lists for it (`x-granted-by`), counted in this project; beyond that it is `403` (`error:
         *     forbidden`) naming each scope, and no token is made.
         */
        post: operations["adminIssueEnrollmentToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/enrollment-tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                token_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token; it redeems no more, keys already issued stay valid. */
        delete: operations["adminRevokeEnrollmentToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/enroll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redeem an enrollment token for a project-bound agent key.
         * @description Idempotent on `agent_handle`: the same handle in the token's project returns the same agent
         *     (200; a fresh key is issued since a raw key is shown once). A new handle creates an agent (201).
         *     A single-use token redeems for one handle only. Also idempotent on `Idempotency-Key` (or
         *     `client_id`), which replays the first response exactly.
         *
         *     A token returns only agents it enrolled itself: a handle already used by an agent made on the
         *     console or enrolled by another token is `409 conflict` (`errors[0]`: `agent_handle`, `taken`),
         *     and nothing is issued. An agent holds at most 20 working (unrevoked, unexpired) keys; a
         *     redemption past that is `409 conflict` (`agent_handle`, `key_limit`) until one is revoked on
         *     the console. Redemptions are rate limited per token (`ENROLL_RATE_LIMIT_PER_MINUTE`, default
         *     30 a minute, counted only for requests carrying the token's secret): over it is
         *     `429 rate_limited` with `Retry-After` in seconds.
         */
        post: operations["redeemEnrollment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the presented key is. */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /**
         * The org's billing summary - plan, entitlements, this month's usage, every plan and the subscription.
         * @description The org is the billing owner: its plan bounds every project's usage. No payment provider is
         *     built in, so `payment_mode` is `test` and `payment_configured` is `false`; plans are changed
         *     by an operator (`agent-inbox plan --org ORG --tier T`) or here (`POST .../billing/plan`).
         *     Owners, admins and billing members may read it.
         */
        get: operations["adminGetBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /** The org's usage in one UTC month (default this month). */
        get: operations["adminGetBillingUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/billing/plan": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the org's plan (test payment mode - nothing is charged).
         * @description Owners, admins and billing members. The new plan's limits apply to the next request: a
         *     lower tier keeps what exists (inboxes, stored mail) but refuses new ones past its limits.
         */
        post: operations["adminChangePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a paid checkout for a plan; `503 not_configured` while no payment provider is configured. */
        post: operations["adminCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The categories this agent may send in (MCP list_categories).
         * @description The project's `org_shared` categories and this agent's own `agent_private` ones, oldest
         *     first (at most 1000). Name one as `category_id` on a send: a send in a category on
         *     `auto_notify` or `autonomous` is auto-sent unless a gate holds it in review.
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/categories/{category_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        /**
         * One category.
         * @description Another agent's `agent_private` category is `404`, as is one of another project.
         */
        get: operations["getCategory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/categories/{category_id}/backlog-status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        /** Queued drafts of the category against the rules high-water. */
        get: operations["getBacklogStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/categories": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** Every category of the project, private ones included, oldest first. */
        get: operations["adminListCategories"];
        put?: never;
        /**
         * Create a category; it starts `supervised`.
         * @description `scope` `org_shared` (default: every agent of the project may use it) or `agent_private`
         *     (with `agent_id`: only that agent sees it; another agent gets `404`). `risk` overrides
         *     fields of the account risk dial for this category (`null` or an omitted field inherits it);
         *     the daily auto-send cap is per customer and is not overridden here.
         */
        post: operations["adminCreateCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/categories/{category_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename, describe, or set the category's risk override (null inherits the account dial). */
        patch: operations["adminUpdateCategory"];
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/categories/{category_id}/graduate": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the category up one rung (supervised → auto_notify → autonomous).
         * @description Only once the rung is earned: `graduate_min_approvals` clean approvals in a row at the
         *     current rung and a category at least `graduate_min_age_hours` old (the category's dial).
         *     Before that `409 maturity_gate_unmet`, with an `errors[]` entry per missing part
         *     (`clean_approvals`, `age_hours`). A pinned category is `409 graduation_locked`; an
         *     autonomous one `409 conflict`. Every 409 also carries `rung` and the legal
         *     `allowed_action` entries. Emits `category.graduated` and one `review.recheck_category`
         *     broadcast item per queued draft of the category. A category also graduates on its own,
         *     one rung at a time, when a decision completes the run of approvals.
         */
        post: operations["adminGraduateCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/categories/{category_id}/demote": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the category down one rung; emits `category.demoted`.
         * @description A supervised or pinned category is `409 conflict`. Drift demotes too, on its own, after `drift_demote_after` edits or rejections in a row.
         */
        post: operations["adminDemoteCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/categories/{category_id}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pin the category at supervised (never_graduate), or unpin it with `{"pinned":false}`.
         * @description Pinning a graduated category demotes it to supervised (`category.demoted`); a pinned
         *     category counts decisions but never graduates until unpinned. Pinning a pinned category,
         *     or unpinning one that is not pinned, is `409 conflict`.
         */
        post: operations["adminPinCategory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/categories/{category_id}/backlog-status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        /** Backlog status, the same view as the agent plane's; a foreign id is 404. */
        get: operations["adminGetCategoryBacklog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The contact list of an inbox, oldest first. */
        get: operations["listContacts"];
        put?: never;
        /**
         * Add an allow or block entry to an inbox's contact list.
         * @description `pattern` is a bare address (matched in full) or a bare domain (every address of exactly that
         *     domain; `example.com` does not cover `mail.example.com`), stored lower-cased. A block entry
         *     refuses matching recipients (`403 recipient_blocked`); once any allow entry exists the inbox
         *     sends only to recipients matching one (allowlist mode). Only `direction: send` is enforced;
         *     `receive` is stored for forward compatibility. The same entry twice is answered `200` with
         *     the existing one (`201` when created). Needs `mailbox:send`: the list decides where the inbox
         *     may send.
         */
        post: operations["addContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/contacts/{contact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a contact list entry.
         * @description An entry of an inbox outside the key's reach is `404`.
         */
        delete: operations["removeContact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/suppression": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's suppression list, oldest first.
         * @description Project-wide: every inbox of the project is refused sending to these addresses (`422
         *     recipient_suppressed`). Origin `agent`: added by an agent; `unsubscribe`: the recipient's own
         *     opt-out; `delivery`: added by the service when a send to the address hard-bounced (reason
         *     `bounced`), was complained about (reason `complained`), or soft-bounced `SOFT_BOUNCE_LIMIT` sends in a
         *     row (default 3; reason `bounced`). An org key names the project with `X-Project-Id` (else `400
         *     breadth_required`).
         */
        get: operations["listSuppressions"];
        put?: never;
        /**
         * Suppress an address for the whole project.
         * @description Stored lower-cased with origin `agent`. An address already suppressed is answered `200` with
         *     the existing entry (`201` when added). Needs `mailbox:send`.
         */
        post: operations["suppressEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/suppression/{email}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                email: string;
            };
            cookie?: never;
        };
        /**
         * Whether an address is suppressed in the project.
         * @description Always `200`; `suppressed` says whether it is, with its entry's details when it is.
         */
        get: operations["checkSuppression"];
        put?: never;
        post?: never;
        /**
         * Lift a suppression the project's agents added.
         * @description Entries of origin `agent` and `delivery` (added by the service from a hard bounce, reason
         *     `bounced`, or a complaint, reason `complained`). A recipient's own opt-out (origin
         *     `unsubscribe`) is theirs: an agent cannot lift it (`403 forbidden_scope`). An address not
         *     suppressed is `404`.
         */
        delete: operations["unsuppressEmail"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The custom domains of the key's project, oldest first.
         * @description An org key names the project in `X-Project-Id` (else `400 breadth_required`).
         */
        get: operations["listDomains"];
        put?: never;
        /**
         * Onboard a domain the caller controls; answers the DNS records to publish.
         * @description Generates the domain's DKIM key (2048-bit RSA, the private half encrypted at rest, never
         *     shown) and answers the records to publish: a TXT ownership token at `_agent-inbox.<domain>`,
         *     MX to the service's mail host (`MX_HOST`), SPF, the DKIM key at
         *     `<selector>._domainkey.<domain>`, and a DMARC suggestion (not required for verification).
         *     The domain starts `pending`; `POST /v1/domains/{domain}/verify` checks the records.
         *
         *     A domain verified by another account, or the service's own domain, is `409
         *     domain_unavailable`; the same name twice in a project is `409 conflict`. Each plan includes
         *     a number of custom domains per org (`custom_domain_limit`: free 1, developer 3, startup 10,
         *     enterprise unlimited); past it `403 quota_exceeded` with `reason: custom_domain_limit_exceeded`.
         */
        post: operations["createDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/purchase-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask to buy a domain; a self-hosted deployment has no registrar (`503 not_configured`).
         * @description Never authorizes spending. A self-hosted deployment has no registrar, so the answer is always
         *     `503 not_configured` (permanent, do not retry): register the domain elsewhere and onboard it.
         */
        post: operations["requestDomainPurchase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/{domain}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        /** One domain, its records and the result of each record's last check. */
        get: operations["getDomain"];
        put?: never;
        post?: never;
        /**
         * Offboard a domain.
         * @description Refused (`409 conflict`, `errors[0].field: delete_inboxes`, `inbox_count`) while inboxes use
         *     the domain, unless `delete_inboxes=true`: then those inboxes, their mail, threads, contacts,
         *     inbox-bound webhooks and inbox keys go with it, in one transaction. Reviews and events stay.
         */
        delete: operations["deleteDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/{domain}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Look each record up now and record its result.
         * @description Each record is looked up (`DNS_SERVERS`, default the system's resolver, one second a query)
         *     and gets `pass`, `fail` (absent or a different value) or `temperror` (no answer). Every
         *     required record passing makes the domain `verified`; a verified domain whose required
         *     record fails becomes `degraded` (its inboxes keep working). Verified domains are checked
         *     again daily. Verifying a name another account verified first is `409 domain_unavailable`.
         */
        post: operations["verifyDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The custom domains of the project (as `GET /v1/domains`). */
        get: operations["adminListDomains"];
        put?: never;
        /** Onboard a domain (as `POST /v1/domains`). */
        post: operations["adminCreateDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/domains/{domain}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        /** One domain with its records and checks. */
        get: operations["adminGetDomain"];
        put?: never;
        post?: never;
        /** Offboard a domain (as `DELETE /v1/domains/{domain}`). */
        delete: operations["adminDeleteDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/domains/{domain}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Check the domain's records now (as `POST /v1/domains/{domain}/verify`). */
        post: operations["adminVerifyDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Server-sent events, live, with replay from a resume id.
         * @description `text/event-stream`. Each event is sent as `id: evt_<opaque>`, `event: <type>` and `data: <json>`, where
         *     the JSON carries `event`, `id`, `created_at`, `inbox_id` (when the event is about an inbox) and the
         *     event's payload members (for `message.received`: `inbox` and `message`, as in the webhook body).
         *
         *     Choices recorded here beyond the contract:
         *     - Resume: the `Last-Event-ID` header, else the `last_event_id` query parameter (the header wins, so a
         *       browser reconnecting with the URL it first used resumes where it stopped). Every later event the
         *       key may see is replayed in order, then live events follow, none twice. Without either the stream
         *       starts with events after the moment of connecting. The order is the org's event log order, the
         *       same for every stream and every replay; ids are opaque and need not increase along it (an event
         *       whose transaction commits late comes after events with larger ids). An event id is `evt_` and 22
         *       characters that encrypt the event's place in the service-wide log, so ids say nothing about other
         *       tenants' volume. An id this service did not issue (made up, altered, or the older `evt_<n>`
         *       form) is `400 bad_request` naming `last_event_id`. An id of another org resumes after the
         *       nearest older event of the caller's org, or from its first event.
         *     - `types`: comma-separated event types to send (the contract's list, plus `message.delivered`,
         *       `message.bounced`, `message.complained` and `message.delayed`: what became of sent mail, one event
         *       a recipient, with `review_id`, `message_id`, `smtp_message_id`, `recipient`, `type` on bounces and
         *       delays, `status` and `diagnostic`); an unknown type is `400`.
         *     - Reach: an org key sees its org (or the project named by `X-Project-Id`); a project key its
         *       project's events about its own agent's inboxes, and those about no inbox that are its agent's or
         *       nobody's; an inbox key only events about its inbox.
         *     - A comment line (`: heartbeat`) every 15 s (`SSE_HEARTBEAT_SECONDS`) keeps proxies from closing
         *       an idle stream. The response is not compressed or buffered.
         *     - The stream may end at any time (a restart, a slow reader); clients reconnect with the last id.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness; answers while the process runs. */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness; the database is reachable, migrations are applied and the job queue is started. */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document as YAML. */
        get: operations["getOpenApiYaml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document as JSON. */
        get: operations["getOpenApiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The inboxes the key reaches, oldest first.
         * @description A project key lists its own agent's inboxes in its project (a sibling agent's inboxes are
         *     not listed and are `404` by id); an inbox key lists its one inbox. An org key must pick the
         *     breadth: `X-Project-Id: <project_id>` (inboxes of every agent in that project) or
         *     `X-Project-Id: *` (every project of the org); without it the answer is `400
         *     breadth_required`. A project outside the org is `404`.
         */
        get: operations["listInboxes"];
        put?: never;
        /**
         * Create an inbox with an address on the service's domain or a verified custom domain.
         * @description The address is `<username>@<INBOX_DOMAIN>`, or `<username>@<domain>` on a verified custom domain. Without `username` the local part is generated:
         *     the display name as a slug (or `agent`) and a random suffix, for example
         *     `support-bot-7k2xq9@agents.example`. Addresses are lower-cased and unique; a `username` that
         *     is taken is `409 conflict` naming `username`. Usernames are 1-64 of `a-z 0-9 . _ -`, starting
         *     and ending with a letter or digit; `postmaster`, `abuse`, `mailer-daemon`, `hostmaster`,
         *     `webmaster`, `root` and `security` are reserved.
         *
         *     The inbox belongs to the key's agent and is created in that agent's project (for an org
         *     key, an `X-Project-Id` naming another project is `400`). An inbox key cannot create inboxes
         *     (`403 forbidden_scope`, an escalating create).
         *
         *     Limits, both checked and counted atomically (concurrent creations cannot pass them):
         *     the org's plan inbox limit (free 3, developer 10, startup 150, enterprise unlimited),
         *     refused with `reason: inbox_limit_exceeded` and `upgrade_required: true`; and, for an agent
         *     enrolled with a token that has `max_mailboxes`, the token's lifetime allowance (each inbox an
         *     agent of the token creates uses one, deleting does not give it back), refused with
         *     `reason: enrollment_token_mailbox_budget_exhausted`. Both are `403` problem+json
         *     `quota_exceeded` (`QuotaProblem`: `reason, used, delta, limit, remaining, consumed, reserved,
         *     upgrade_required`, with `error` and `message` kept for older readers); inbox counts do not
         *     reset, so these carry no `next_reset_at`. Inboxes created in the console count toward the plan limit but not
         *     toward a token's allowance. The plan's numbers are a deployment's own when `PLANS_FILE` sets them.
         *
         *     An agent enrolled with a token that has `allowed_domains` creates inboxes only on those
         *     domains (or their subdomains): another is `400 domain_not_allowed` naming `domain`.
         *
         *     Idempotent on `Idempotency-Key`, or `client_id` in the body.
         */
        post: operations["createInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * One inbox, with its effective review policy.
         * @description `effective_review_policy` is the per-inbox `review_policy` when set (`source:
         *     inbox_override`), else the org's default (`source: account_default`).
         */
        get: operations["getInbox"];
        put?: never;
        post?: never;
        /**
         * Delete the inbox for good, with its mail.
         * @description Removes the inbox and everything it holds: its messages (raw sources, attachments, search
         *     entries), threads, contact list, recipient counts, the files attached to its reviews, its
         *     review links, the webhooks that name it (with their deliveries), and the `message.received`
         *     events of its mail, which carry the mail itself, with their deliveries to any other webhook
         *     (pending or done: a stream replay or a redelivery never brings deleted mail back). Keys
         *     whose ceiling is this inbox are revoked. Its live reviews are cancelled through the review
         *     machine (`review.cancelled` with `reason: inbox_deleted` on the review event queue and the
         *     event log); review records themselves stay, as the agent's history, and so do the log's
         *     other entries. The inbox's slot under the
         *     plan's inbox limit is free at once (the limit counts live inboxes); an enrollment token's
         *     lifetime allowance is not given back.
         *
         *     Afterwards the id is `404` on every route, for good: a tombstone keeps it, so it is never
         *     given to another inbox. The address is released: mail to it is refused with `550 5.1.1` at
         *     RCPT, and a new inbox may later be created with it (a new inbox with a new id, and none of
         *     the old mail).
         *
         *     A send approved or released from this inbox whose delivery is in flight is not cancelled
         *     and not lost: the deletion waits (up to 10 s) for the delivery to finish, so the mail goes
         *     out once and its outcome is recorded, then deletes. If a delivery is still running after
         *     that (the relay deferred it), or its outcome is unknown and parked for reconciliation, the
         *     answer is `409 conflict` with `Retry-After`, one `errors[]` entry `{field: review_id, code:
         *     delivery_in_flight, detail: <review id>}` per such review, and nothing is deleted. Mail that
         *     arrives while the deletion runs, or within 5 s after it at an SMTP server that had just
         *     looked the address up, is either stored before it (and deleted with the inbox) or refused
         *     with a temporary `451` and never stored; the sender's retry then meets the `550`. A send
         *     submitted while the deletion runs either becomes a review first (and is cancelled with
         *     the others) or is `404`.
         *
         *     Needs `mailbox:delete` (not among the default permissions). Idempotent on
         *     `Idempotency-Key`: a retry replays the `204`; without the header a second call is `404`.
         */
        delete: operations["deleteInbox"];
        options?: never;
        head?: never;
        /**
         * Change the inbox's rolling 24-hour recipient limit.
         * @description `recipient_limit_24h` (0 to 1,000,000; 0 stops sending) is the number of recipients (to
         *     plus cc) the inbox may send to in any rolling 24 hours; sends over it are `403
         *     quota_exceeded` with `reason: recipient_limit_exceeded`. Lowering it below what the last 24
         *     hours used refuses further sends until enough of them age out; nothing already queued is
         *     withdrawn. Needs `mailbox:quota` (not among the default permissions: a key gets it when
         *     issued with it). The review policy of an inbox is a human setting, changed on the console
         *     (`PATCH A/inboxes/{inbox_id}`), not here. A value that is not an integer in range is `400
         *     bad_request` naming `recipient_limit_24h`; an unknown key is `400` listing the accepted one.
         */
        patch: operations["updateInbox"];
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/inboxes": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** Every inbox of the project, of every agent, oldest first. */
        get: operations["adminListInboxes"];
        put?: never;
        /**
         * Create an inbox for an active agent of the project.
         * @description `domain` (or `domain_id` from the console domains list) picks the domain: the service's
         *     (`INBOX_DOMAIN`, the default) or a custom domain of the project that is `verified`. A domain
         *     not onboarded in the project is `400` naming the field with code `not_found`; one pending or
         *     degraded, code `not_verified`. `username` as on the agent plane. Counts toward the plan's
         *     inbox limit (`403 quota_exceeded`, `reason: inbox_limit_exceeded`) but not toward an
         *     enrollment token's allowance.
         */
        post: operations["adminCreateInbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * Messages of one folder, newest first.
         * @description Entries carry no bodies: `preview` is the first 200 characters of the extracted text
         *     (whitespace collapsed); read a message for `text` and `html`. Reading does not change `seen`.
         *
         *     How mail arrives: over SMTP on `SMTP_PORT` (default 2525; STARTTLS when `SMTP_TLS_KEY` and
         *     `SMTP_TLS_CERT` are set; no AUTH). `RCPT TO` is accepted only for hosted addresses, matched
         *     without regard to case (`550 5.1.1` otherwise). `SIZE` is 25 MiB: a `MAIL FROM` declaring
         *     more, or a message that turns out larger, is `552` and nothing is stored. A `250` after DATA
         *     means the message is committed; any failure before that is `451 4.3.0`, so the sending
         *     server retries. A message to several hosted inboxes is stored once in each. The raw source
         *     is kept exactly as received (no trace header is added). Malformed MIME is stored and
         *     listed too: fields are read on a best-effort basis and `parse_error` says what failed.
         *     Each stored copy appends a `message.received` event in the same transaction, whose
         *     payload is the contract's webhook body (`from` and `to` as raw header strings; `text` is
         *     the text part, or the text of the html, cut at 256 KiB with `text_truncated: true`;
         *     `message_id` is empty when the message has none; `date` is the Date header, or the receive
         *     time when there is none).
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * One message.
         * @description The message id names its inbox; a message of an inbox outside the key's reach is `404`.
         *     `text` and `html` are the MIME's own text/plain and text/html bodies, null when the message
         *     has none (nothing is synthesized). `extracted_text` and `extracted_html` drop quoted history
         *     and signatures where they can be found; for a message with html only, `extracted_text` is
         *     the extracted html rendered as text.
         *
         *     Without `format` all four keys are present (each null when there is no such body).
         *     `format` narrows them: `text` (`text`, `extracted_text`), `html` (`html`,
         *     `extracted_html`), `both` (the default: all four), or `auto` (as `text` when the MIME has a
         *     text part, else as `html`); keys left out are absent from the response. `variant:
         *     extracted` puts the extracted views in `text` and `html` (default `source`: the MIME's own).
         */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/{message_id}/raw": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * The message exactly as received, as message/rfc822.
         * @description A download like an attachment: `Content-Disposition: attachment; filename="<message id>.eml"`,
         *     `Content-Security-Policy: sandbox` and `X-Content-Type-Options: nosniff`.
         */
        get: operations["getMessageRaw"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/{message_id}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        /**
         * Every non-body MIME part of the message, in MIME order, inline parts included.
         * @description `inline` is true for a part with `Content-Disposition: inline` or one the html refers to by
         *     `cid:`; `content_id` is without angle brackets. The list is not paged (`has_more` is false).
         */
        get: operations["listAttachments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/{message_id}/attachments/{attachment_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
                attachment_id: string;
            };
            cookie?: never;
        };
        /**
         * One part's decoded content, as a file to save.
         * @description The sender chose the part's type and name, so neither is trusted. The declared content type
         *     (without parameters) is kept only for passive types (`text/plain`, `text/csv`,
         *     `application/pdf`, `image/png`, `image/jpeg`, `image/gif`, `image/webp`, `audio/mpeg`,
         *     `video/mp4`, `application/zip`); any other (HTML, SVG, XML, JavaScript, ...) is served as
         *     `application/octet-stream`. The part's type as sent stays in the attachment list. Every
         *     download, inline parts included, carries `Content-Security-Policy: sandbox`,
         *     `X-Content-Type-Options: nosniff` and `Content-Disposition: attachment` (RFC 6266), so no part
         *     is rendered as a page of this service. The filename is its last path segment without control
         *     characters or quotes, as `filename` in ASCII and, when it differs, as `filename*` in UTF-8.
         */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/search": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * Full-text search over subject, addresses and body, ranked.
         * @description `q` uses PostgreSQL web-search syntax (`"exact phrase"`, `or`, `-word`) with English
         *     stemming over the subject (weighted highest), the names and addresses of from, to, cc and
         *     reply-to (an address also matches by its local part and its domain), and the body (the
         *     text part, or the text of the html for an html-only message; its first 100,000
         *     characters). Results are ranked (`rank`), ties newest first. Ranking considers the 500
         *     most recent messages that match (with the filters), so a word found in most of a large
         *     inbox answers as fast as a rare one; to reach older matches, narrow with `before`. A quoted
         *     phrase is looked up by its pairs of adjacent words, which are indexed, and then checked
         *     word by word, so a phrase of common words that rarely stand together answers about as fast
         *     as a rare word. Without `q` the filtered messages come newest first with rank 0.
         *
         *     Filters, all optional and combined: `from` and `to` (the sender, or a to/cc recipient: a
         *     whole address matches that address, any other value is a case-insensitive substring of an
         *     address or name, such as a domain), `subject` (case-insensitive substring),
         *     `folder` (default: every folder), `after` and `before` (received at or after, and before),
         *     `has_attachment`, `authenticated` (the From domain was vouched for at receipt; see
         *     `Authentication`).
         */
        get: operations["searchMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/batch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Mark messages seen or unseen and move them between folders, all or nothing.
         * @description Up to 100 updates, applied in one transaction. When any id is not a message of this inbox,
         *     nothing changes and the answer is `404 not_found` with one `errors` entry per missing id
         *     (field `updates.id`). Several updates of one id apply in order. Returns the updated
         *     messages in the order of their first update.
         */
        patch: operations["batchUpdateMessages"];
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/wait": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Wait for the next inbound message that matches, optionally extracting a code or link.
         * @description Answers with the earliest inbound message received strictly after `since` (default: the
         *     moment the call starts) that matches `from` (case-insensitive substring of the sender's
         *     address or name) and `subject_contains` (case-insensitive substring of the subject): at once
         *     when one is already stored, otherwise as soon as one is stored, otherwise after
         *     `timeout_seconds` (default 30, 1-120) with `{message: null, timed_out: true}` (status 200).
         *     Receive times are whole milliseconds, so a `since` copied from a message's `received_at`
         *     never returns that message again.
         *
         *     With `extract: code` (a one-time code: 4-8 digits, possibly written in groups such as
         *     `123 456` and returned without the separator, or 6-8 capital letters and digits such as
         *     `ABC-123` or `QWERTZ`, near a word such as code, verification or OTP, or in the body of a
         *     mail whose subject names a code; dates, times, amounts, phone, order and card numbers are
         *     passed over) or `extract: link` (a verification, confirmation, magic sign-in, reset or
         *     invitation link, tracking redirects included; unsubscribe and preference links are
         *     ignored), only a message in which one is found counts as a match; it is returned in `code`
         *     or `link` beside the message.
         *     The message is the full record with both bodies.
         */
        post: operations["waitForEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/notification-preferences": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * How review notifications reach the calling member in this project.
         * @description Members who may decide on reviews (roles owner, admin and member) are told when a review
         *     starts waiting for a human (new, revised, handed back, escalated by a reviewer agent), when a
         *     waiting review nears its deadline (a tenth of its wait before it, at most an hour), and on an
         *     `auto_notify` category when a mail went out on its own. `mode`: `instant` (a mail each time,
         *     the default), `digest` (one mail every `digest_minutes` with what is still waiting) or `off`.
         */
        get: operations["adminGetNotificationPreferences"];
        /**
         * Set the calling member's notification preference in this project.
         * @description Omitted fields keep their value. Each member sets only their own.
         */
        put: operations["adminSetNotificationPreferences"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/chatops": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The project's chat-ops channel. */
        get: operations["adminGetChatops"];
        /**
         * Name the project's chat-ops incoming webhook (owner or admin); null removes it.
         * @description The same notices as the members' mails, posted as Slack-compatible JSON (`{"text": ...}`)
         *     with a link to the console. Private and loopback targets are refused (`400` naming
         *     `webhook_url`, code `target_refused`) unless `WEBHOOK_ALLOW_PRIVATE` is set, as for webhooks.
         */
        put: operations["adminSetChatops"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/reviews/{review_id}/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        /**
         * A review's notification history, and who decided it through which channel.
         * @description `notifications`: each notice (channel `mail`, `digest` or `chatops`; `status` `pending` while
         *     it waits for a digest). `decisions`: each human decision with the member's email and `via`
         *     (`console`, `mail_link`, `mail_reply`). Links used and refused are in the event log
         *     (`notification.link_used`, `notification.link_refused`) beside `notification.sent`.
         */
        get: operations["adminReviewNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/decide/{token}": {
        parameters: {
            query?: {
                action?: "approve" | "reject" | undefined;
            } | undefined;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        /**
         * The page of a notification's one-time decision link.
         * @description Shows the draft again with an Approve or Reject button; nothing changes on GET (link
         *     scanners and previews follow links). A link for a revision that is no longer current, one
         *     used already, expired, or of a member who may no longer decide, says so with a link to the
         *     console.
         */
        get: operations["decisionLinkPage"];
        put?: never;
        /**
         * Decide through a one-time link (the page's button).
         * @description Approves or rejects the revision the link was made for, as the member it was sent to (the
         *     decision is recorded like a console one, with `via` `mail_link`). The link is spent with the
         *     decision; a second use, or a revision no longer current, decides nothing and says why.
         */
        post: operations["decisionLinkDecide"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/problems": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every problem type (error code) with its status, meaning and what to do.
         * @description HTML by default; JSON when the `Accept` header prefers `application/json`. Generated from the
         *     service's one error registry, the same list as the `code` enum of `Problem`.
         */
        get: operations["listProblems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/problems/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The page of one problem type, the target of a problem's `type` URI.
         * @description HTML by default; JSON when the `Accept` header prefers `application/json`.
         */
        get: operations["getProblem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API reference pages rendered from this document (Redoc, served by the service itself). */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The renderer the reference page loads (Redoc's standalone bundle). */
        get: operations["getApiReferenceScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/guides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The guides (the README and one page per topic under `docs/`), as HTML pages. */
        get: operations["listGuides"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/guides/{page}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One guide page rendered from its Markdown file under `docs/`, or a picture it shows.
         * @description `page` is the file's name without `.md` (`review-loop`), or a picture's name with `.png`.
         *     Links between the guides point at these pages.
         */
        get: operations["getGuide"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics of this process, and queue and review figures read at scrape time.
         * @description The Prometheus text exposition format. Open when `METRICS_TOKEN` is unset; otherwise it needs
         *     `Authorization: Bearer <METRICS_TOKEN>` and answers `401 unauthorized` without it.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/review-links": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The project's review links, oldest first. */
        get: operations["adminListReviewLinks"];
        put?: never;
        /**
         * Link a reviewer agent to an inbox, or to the whole project (owner or admin).
         * @description From then on a review of a covered inbox is routed to `reviewer_agent_id` instead of the
         *     human queue, at submission and on every return to `needs_review`. `inbox_address` empty or
         *     omitted covers every inbox of the project; an inbox's own link overrides the project-wide one.
         *     One link per scope: a second is `409 scope_taken`.
         *
         *     `reviewer_agent_id` must be an active agent of the project holding a live key with
         *     `review:act` (else `400` naming it), and never the agent composing the inbox's mail (`400`
         *     with code `composer_reviewer`; a project-wide link naming a composer is skipped for that
         *     composer's reviews). `transport` `webhook` (default) pushes each work item to `webhook_url`
         *     (same target rules as webhooks) signed like a webhook delivery (`X-Service-Signature:
         *     t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">`) with `hmac_secret`, which a webhook link
         *     requires; `hmac_secret` is write-only and kept encrypted. `sse` and `websocket` links keep
         *     their items in `GET /v1/reviewer/queue`. Failed pushes are retried on the webhook schedule;
         *     after `REVIEW_LINK_UNHEALTHY_AFTER` (5) failures in a row routing skips the link (the review
         *     goes to the human) until a push or a call of the reviewer succeeds.
         */
        post: operations["adminCreateReviewLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/review-links/{link_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                link_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a review link (owner or admin); new reviews of its scope go to the human. */
        delete: operations["adminDeleteReviewLink"];
        options?: never;
        head?: never;
        /**
         * Change a review link (owner or admin); any subset of the create fields and `active`.
         * @description The same checks as creation for what changes. A new `hmac_secret` replaces the old one. An
         *     inactive link routes nothing (a project-wide link then covers its inbox, if any). Reviews
         *     already routed keep their reviewer until they return to `needs_review`.
         */
        patch: operations["adminUpdateReviewLink"];
        trace?: never;
    };
    "/v1/reviews/{review_id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A reviewer agent's decision on a review routed to it.
         * @description `open` (needs_review → in_review), `approve` and `edit` (→ delivery with the composing
         *     agent's inbox as sender; `edit` replaces `text` and/or `subject` and records the diff),
         *     `reject` (optional `feedback`), `chat` (`message`), `hand_back` (in_review or chatting →
         *     needs_review with `feedback` for the composer; each one is a hop, and at the link's
         *     `max_hops` the review is routed to the human). `parent_revision`, when given, must be the
         *     current revision (else `409 stale`). A review not routed to the caller's agent now
         *     (another reviewer's, escalated or handed to the human, or not a review of the project) is
         *     `404`. Conflicts follow the review 409 taxonomy (see `Review`), with the reviewer's verbs
         *     as `allowed_action`. A call of the reviewer marks its links healthy again.
         */
        post: operations["decideReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviewer/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The work items routed to the caller's agent and waiting on it, oldest first.
         * @description Reviews in `needs_review`, `in_review` or `chatting` routed to this reviewer agent, in the
         *     order they were routed to it. Every transport keeps its items here, so a reviewer that was
         *     offline drains its work on return. A call of the reviewer marks its links healthy again.
         */
        get: operations["getReviewerQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviewer/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's work items as server-sent events (links with `transport` `sse`).
         * @description `text/event-stream`. Each item is sent as `id: rwk_<opaque>`, `event: reviewer.work` and
         *     `data: <ReviewerWork>`, for work routed to the caller's agent through a link with
         *     `transport: sse`.
         *
         *     Choices recorded here:
         *     - Without a resume id the stream first sends every item of such links still waiting on the
         *       reviewer (oldest routing first), then each item as it is routed; none is lost between a
         *       read of `GET /v1/reviewer/queue` and the stream, and none is sent twice.
         *     - Resume: the `Last-Event-ID` header, else `last_event_id` (the header wins): the items routed
         *       after that one follow. An id this service did not issue is `400 bad_request` naming
         *       `last_event_id`.
         *     - Work that moved on before it was sent (decided, handed back, escalated to the human, or
         *       revised since, which sends a newer item) is not sent.
         *     - `: heartbeat` every 15 s (`SSE_HEARTBEAT_SECONDS`). Connecting marks the caller's links healthy.
         *     - The stream may end at any time (a restart); clients reconnect with the last id.
         */
        get: operations["streamReviewerWork"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviewer/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's work items and decisions over a WebSocket (links with `transport` `websocket`).
         * @description A WebSocket upgrade (RFC 6455). The agent key is checked at the upgrade (`Authorization:
         *     Bearer`): a missing or bad key is answered `401`, a key without `review:act` `403`, both as
         *     problem+json, and no socket opens. A plain GET without the upgrade is `400 bad_request`
         *     naming `Upgrade`.
         *
         *     Frames are JSON text. The service sends:
         *     - `{"type":"work","id":"rwk_…","work":<ReviewerWork>}` for each item routed through a link with
         *       `transport: websocket`: on connect every item still waiting, then each as it is routed
         *       (the same rules as `GET /v1/reviewer/stream`). Connect with `?last_event_id=<id>` (or the
         *       `Last-Event-ID` header) to get only the items after the last one received.
         *     - `{"type":"result","ref":…,"status":200,"body":<Review>}` or
         *       `{"type":"problem","ref":…,"status":<4xx>,"body":<Problem>}` answering a decision frame:
         *       the same body `POST /v1/reviews/{review_id}/decision` returns. `ref` echoes the frame's `ref`.
         *
         *     The reviewer sends decisions as `{"type":"decision","ref":<any>,"review_id":"rr_…",
         *     "action":…, "parent_revision":…, …}` with the decision body's fields. Decisions on one review
         *     are applied in the order they arrive; those on different reviews run side by side, so match
         *     answers by `ref`. A frame that is not JSON or not a decision is answered with a `problem` (`400`).
         *
         *     The service pings every 15 s (`SSE_HEARTBEAT_SECONDS`) and closes a socket that did not
         *     answer the previous ping; clients reconnect with the last id they received.
         */
        get: operations["reviewerSocket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Drain the durable review event queue.
         * @description The authoritative channel of the Review Loop (webhooks and the event stream are best-effort
         *     copies). Returns the unacknowledged events of the reviews this agent composed, oldest first
         *     across reviews, each with `seq` (its position within its review). An event stays in the
         *     drain until acknowledged with `POST /v1/reviews/events/ack`; `next_cursor` pages within
         *     one drain. An inbox key sees its inbox's reviews only. `review_id` and `inbox_id` narrow
         *     the drain.
         */
        get: operations["listReviewEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/events/wait": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Long-poll the durable review event queue.
         * @description Answers as soon as at least one unacknowledged event is pending (at once when one already
         *     is), with the same body as the drain and `timed_out: false`; after `timeout_seconds`
         *     (default 30, at most 120) with no event, `200` with an empty `data` and `timed_out: true`.
         *     Woken by the database's NOTIFY when a review event commits, on any API process.
         */
        get: operations["waitForReviewEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/events/ack": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge review events, per review.
         * @description Each ack moves the agent's cursor of one review to `through_seq`: every event of that review
         *     up to it leaves the drain. Monotonic and idempotent: acking an older or equal sequence
         *     changes nothing; a sequence beyond the review's last event is clamped to it, so events
         *     that come later are never skipped. Returns the stored cursor of each acked review. A review
         *     the agent did not compose (or outside an inbox key's inbox) is `404` naming it, and nothing
         *     is acknowledged. `broadcast_ids` acknowledges broadcast items by their `broadcast_id`: a
         *     `review.rule_changed` item lands on every live draft (`needs_review`, `in_review`,
         *     `chatting`, `rejected`) a changed active rule applies to, carrying `broadcast_id`,
         *     `rule_id`, `rules_version` (the new high-water) and `draft_rules_version`. Unknown ids
         *     change nothing.
         */
        post: operations["ackReviewEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The reviews this agent composed, newest first. */
        get: operations["listReviews"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/{review_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        /**
         * One review, with the verbs the composer may use now.
         * @description A review of another agent (or outside an inbox key's inbox) is `404`.
         */
        get: operations["getReview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/{review_id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        /** Every reviewer decision note, edit diff and chat message of the review, oldest first. */
        get: operations["getReviewFeedback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/{review_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw the draft (also the one close-out of a failed send).
         * @description Legal from `needs_review`, `in_review`, `chatting`, `rejected` and `failed`; never while a
         *     delivery is in flight (`approved`, `edited`, `sending_auto`). Conflicts follow the review 409
         *     taxonomy (see `Review`).
         */
        post: operations["cancelReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/{review_id}/restamp": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark the draft as current with the rules high-water, unchanged.
         * @description Legal in `needs_review` and `rejected` with `parent_revision` equal to the current revision
         *     (else `409 stale`). Sets `rules_version` to the project's rules high-water (0 until writing
         *     rules exist).
         */
        post: operations["restampReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/{review_id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a new revision of the draft.
         * @description Legal in `needs_review`, `in_review`, `chatting` and `rejected`, with `parent_revision` equal
         *     to the current revision; an older one is `409 stale` and changes nothing (re-read the review
         *     and its feedback, re-apply, resubmit; at most 3 times). The named fields replace the
         *     draft's; the review returns to `needs_review` with `revision + 1` (event
         *     `review.needs_review`). New recipients pass the checks of a send (`400 domain_not_allowed`
         *     outside the enrollment key's domains, `403 recipient_blocked`, `422 recipient_suppressed`).
         *     Recipients beyond those the review has had counted (at its submission and by earlier
         *     revisions) count in the inbox's rolling 24-hour recipient limit at the revision's time;
         *     past it the revision is `403 quota_exceeded` with `reason: recipient_limit_exceeded` and
         *     every field of a send's refusal, and nothing changes. Dropping recipients gives none back,
         *     and a cancelled review gives back only those counted at its submission. The revision's
         *     recipients are held against the plan's daily message cap and monthly quota and the
         *     enrollment key's daily sending in place of what the review held (a rejected draft holds
         *     nothing): asking for more than it held past a cap is `403 quota_exceeded` with every field
         *     of a send's refusal, and nothing changes. `body` is the deprecated alias of `text`.
         *     `rules_version` names the rules high-water the redraft was built against (`GET /v1/rules`;
         *     omitted, the draft's own). Older than the project's high-water is `409 born_stale`, with
         *     the current high-water as the `rules_version` entry of `errors[]`, and nothing changes:
         *     re-read the rules and resubmit, or restamp when nothing needs to change. `born_stale` is
         *     answered at most once per review and high-water: the next redraft of that review at the
         *     same high-water is taken whatever `rules_version` it names (the agent was told; a retry
         *     must not loop), and only a newer high-water refuses again. An accepted revision records
         *     the current high-water.
         */
        post: operations["reviseReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/reviews/{review_id}/chat": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a chat message to the reviewer.
         * @description Legal in `in_review` and `chatting` (a chat with the composer begins when the reviewer
         *     writes first). The message is recorded with the review's feedback; the reviewer's answers
         *     arrive as `review.chat` events.
         */
        post: operations["chatReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/unsubscribe/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        /**
         * The confirmation page of a List-Unsubscribe link.
         * @description An HTML page with one button per recipient of the message; nothing changes on GET (link
         *     scanners follow links). A token this service did not sign is a `404` page.
         */
        get: operations["unsubscribePage"];
        put?: never;
        /**
         * One-click unsubscribe (RFC 8058).
         * @description The token (HMAC-SHA256, signed with a key derived from the service's `ENCRYPTION_KEY`)
         *     names one sent message. The POST adds its recipients to the suppression list of the project
         *     that sent it (origin `unsubscribe`), so no send of that project reaches them again; the
         *     form body (`List-Unsubscribe=One-Click`, or `email=<address>` from the confirmation page to
         *     opt out one recipient of a message to several) is read, never required. Repeating it changes
         *     nothing. A token this service did not sign is `404`.
         */
        post: operations["unsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The writing rules that apply to this agent, in ladder order, and the rules high-water.
         * @description Active rules only, ordered as the agent should weigh them: `hard` rules first (no lower rule
         *     overrides them); then project and per-agent rules over org-layer rules (a rule for this
         *     agent over a rule for all agents); then by `priority`, highest first. Without
         *     `category_id` the general rules apply; with it, that category's rules join them.
         *     `rules_version` is the project's rules high-water: every change to an active rule that
         *     applies here raises it. Send it as `rules_version` when revising a draft; a revise built
         *     against an older high-water is `409 born_stale`.
         */
        get: operations["getRules"];
        put?: never;
        /**
         * Propose a writing rule; a human activates it.
         * @description The rule lands `proposed` with `author_kind` `agent` in this project and is not in the
         *     ladder until a human activates it in the console. `rule_text` is at most 2000 characters;
         *     `category_id` is set only with `scope` `category`; `scope_agent_id` makes it a per-agent
         *     rule. Emits `rule.created`.
         */
        post: operations["proposeRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a new message through the Review Loop.
         * @description Every send creates a review record (`rr_...`). Under the resolved review policy
         *     `require_review` the draft waits for a human: `202` with `outcome: queued_for_review`. Under
         *     `allow_direct` the review is released at once: `202` with `outcome: released`, the review in
         *     `sending_auto`, ending in `auto_sent` (event `review.auto_sent`) or `failed`.
         *
         *     Checks, in this order; a refused request writes nothing, not even its idempotency key, so the
         *     same request (and key) can be retried once fixed:
         *     1. the body: unknown keys are `400` listing the accepted keys; `body` is the deprecated alias of
         *        `text`, and both with different content is `400 bad_request` with an `errors[]` entry of code
         *        `conflicting_alias`; invalid addresses, more than 50 recipients (to plus cc), more than 10
         *        attachments or more than 25 MiB of text and attachments are `400` naming the field; so is
         *        an `intent` that is given but invalid (`intent.summary` missing or outside 8-200
         *        characters, `intent` or `intent.meta` not an object), under any policy; a recipient
         *        whose domain is outside the `allowed_domains` of the enrollment key that enrolled the agent
         *        (a listed domain covers its subdomains) is `400 domain_not_allowed` naming `to`, the domain
         *        in `errors[0].detail`;
         *     2. the inbox's contact list: a recipient matching a block entry, or (when any allow entry
         *        exists, allowlist mode) matching no allow entry, is `403 recipient_blocked`, each such address
         *        an `errors[]` entry;
         *     3. the project's suppression list: `422 recipient_suppressed`, `errors[]` naming only the
         *        suppressed addresses;
         *     4. the intent gate: under `require_review` a send with no `intent` (absent or null) is `422
         *        intent_required` (entries `intent.summary`, `intent.meta`, `category_id`, `policy` with
         *        `policy` and `source`, and `retry_with` with an `example` intent); under `allow_direct` an
         *        intent is optional;
         *     5. `category_id` must name a category this agent may use (`GET /v1/categories`: the
         *        project's shared ones and its own private ones), else `400` naming `category_id` (code
         *        `not_found`): a reference in the body, not the resource of the path;
         *     6. the inbox's rolling 24-hour recipient limit (`recipient_limit_24h`, default 500): the
         *        recipients (to plus cc) of the inbox's reviews created in the last 24 hours and not
         *        cancelled, plus this send's, must fit; else `403` problem+json `quota_exceeded`
         *        (`QuotaProblem`, `reason: recipient_limit_exceeded`, with `used, delta, limit, remaining,
         *        consumed, reserved, next_reset_at, upgrade_required`, and `error`/`message` for older
         *        readers), `next_reset_at` being when the oldest counted send leaves the window;
         *     7. the org's plan and the agent's enrollment key: the send reserves its recipients (to plus
         *        cc) against the plan's daily message cap (recipients sent a UTC day), then its monthly
         *        quota (recipients sent plus messages received a UTC month), then the enrollment key's
         *        `daily_send_limit`. Used is what was delivered in the period plus every pending
         *        reservation; a reservation lasts until delivery consumes it or a cancel, rejection or
         *        failure releases it (across period boundaries). Over any of them: `403 quota_exceeded`
         *        (`QuotaProblem`, `reason` `daily_message_cap_exceeded`, `monthly_message_quota_exceeded`
         *        or `enrollment_token_daily_send_exhausted`; `next_reset_at` the next UTC day or month;
         *        `upgrade_required` true for the plan's caps) and nothing is written. The check is exact
         *        across processes: reservations of one org are taken one at a time;
         *     8. idempotency (`Idempotency-Key`, or `idempotency_key` / `client_id` in the body).
         *
         *     Release: under `allow_direct` the send goes out at once. Under `require_review`, a send in a
         *     category on `auto_notify` or `autonomous` is auto-sent (`outcome: released`,
         *     `review.auto_sent`) unless a gate of the category's risk dial holds it in review: a
         *     recipient this inbox never mailed (`first_contact_gate`), `intent.meta.confidence` below
         *     `min_confidence`, the `canary_rate` share on `autonomous` (fixed per review id), or the
         *     customer's daily auto-send cap (`auto_send_cap_per_day`, counted per UTC day in the send's
         *     transaction: over it the send is queued, never refused). The review's `effective_mode` and
         *     `mode_reason` say which. On `auto_notify` the `review.auto_sent` item carries
         *     `notify_human: true` with `rung` and `mode_reason`.
         *
         *     The message goes out from the inbox's address (with its display name) and carries a
         *     `Message-ID` fixed before delivery, `List-Unsubscribe` (an HTTPS one-click link and a
         *     `mailto:` to the inbox) and `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
         *     The sent copy is filed in the inbox's `SENT` folder with `review_id`.
         *
         *     Attachments: `content` is base64; `content_type` defaults to `application/octet-stream`.
         *
         *     Delivery, once a human approves or edits (or the policy releases the send): recipients whose
         *     address is an inbox of this service receive it through the same path as inbound SMTP
         *     (`message.received`); others through the relay named by `SMTP_URL`, or, when none is
         *     configured, into a local outbox that operators read (`agent-inbox outbox`). A send goes out
         *     exactly once: a relay's definite refusal (5xx) makes the review `failed` (`review.failed`;
         *     only the composer's cancel closes it); a temporary refusal (4xx) or a connection that failed
         *     before the message was handed over is retried with backoff (2 s doubling, given up as
         *     `failed` after 8 tries); a connection lost after the message was handed over leaves the
         *     outcome unknown, and the review stays in its state with `send_needs_reconciliation: true`
         *     (every verb `409 send_needs_reconciliation`) until an operator, having looked its Message-ID
         *     up in the relay's log, resolves it (`agent-inbox reconcile`). It is never sent again.
         *
         *     A hosted recipient's org bounds internal delivery as it bounds inbound SMTP: when storing
         *     the copy would take that org past its monthly message quota or its storage, nothing is
         *     stored (not the recipients' copies, not the `SENT` copy) and the delivery is deferred as
         *     the `452 4.2.2` an SMTP sender would hear: retried with the same backoff as a relay's
         *     temporary refusal, with the send's reservation still held, and delivered to every
         *     recipient once that org can take it (its plan raised, the month turned, storage freed), or
         *     given up after 8 tries. The receiving org's owners hear of it as of refused inbound mail
         *     (one system mail and one `usage.quota_exceeded` event a day). A relay that already took
         *     the external recipients' copy is never handed it again; given up, such a send still ends
         *     `sent` (or `auto_sent`) with its `SENT` copy, and the sender's inbox receives an
         *     `Undelivered: <subject>` notice naming the hosted recipients it did not reach. A send that
         *     reached no one ends `failed`. A hosted recipient whose self-signup inbox is not verified
         *     yet is deferred the same way, as the `450 4.2.1` inbound SMTP answers it, and delivered
         *     once the inbox is active.
         *
         *     What became of it, per recipient (choices beyond the contract): the envelope sender is a
         *     return path on the inbox's domain signed for this review (`bounce+<review id>.<mac>@<domain>`;
         *     one a send, not one a recipient, so the relay gets one SMTP transaction and the recipient is
         *     read from the report). The relay or hosted inbox taking it is `message.delivered`; a relay's
         *     temporary refusal is `message.delayed`; a DSN or ARF report that comes back later is
         *     `message.bounced` (`type` hard or soft), `message.delayed` or `message.complained`, shown in the
         *     review's and the SENT copy's `delivery`. A hard bounce or a complaint suppresses the recipient
         *     for the project (`422 recipient_suppressed` on the next send), as do `SOFT_BOUNCE_LIMIT` soft
         *     bounces in a row. Held for a human whatever the policy or category: a reply that may be a turn
         *     of a mail loop (`mode_reason: loop_suspected`) and any send from an inbox whose sender health
         *     is past its limits (`sender_health`). A reply to a message marked `auto_submitted` carries
         *     `Auto-Submitted: auto-replied`.
         */
        post: operations["sendEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply in a thread through the Review Loop.
         * @description The reply answers the newest message of `thread_id` (its last message): `In-Reply-To` is that
         *     message's Message-ID and `References` its References followed by its Message-ID. Without
         *     `to` the reply goes to that message's `Reply-To` (else its sender); when the newest message is
         *     one of ours (SENT), to its recipients. `subject` defaults to the parent's with `Re: `. A
         *     thread of another inbox is `404`.
         *
         *     `expected_last_message_id` guards against replying to a thread that moved on: when it is
         *     not the thread's last message the answer is `409 reply_context_changed` (a guard, not a lock)
         *     with `last_message_id` and an `errors[]` entry naming `expected_last_message_id`.
         *
         *     Otherwise as `send`: the same checks in the same order, the same responses.
         */
        post: operations["replyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/messages/{message_id}/forward": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                message_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Forward a message of the inbox through the Review Loop.
         * @description Carries the original twice: its header block and text quoted below the optional note
         *     (`text`), as mail clients show a forward, and the original itself attached as
         *     `message/rfc822` (with every attachment it had). `subject` defaults to the original's with
         *     `Fwd: `. A message of another inbox is `404`. Otherwise as `send`.
         */
        post: operations["forwardEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/signup-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether self-signup is open.
         * @description The signup gate. Operators open and close it with `agent-inbox signup --enable|--disable`;
         *     until they do, `SIGNUP_ENABLED` (default false) decides. When the gate cannot be read (a
         *     database error) the answer is `503` with `error` `signup_gate_unavailable` in the legacy
         *     envelope and `Retry-After`: sign-up stays closed until it can be read.
         */
        get: operations["signupStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign up for an inbox with an email address; a code is mailed there.
         * @description With the gate open: creates an org and a project on the default plan (`DEFAULT_PLAN`), an
         *     agent (`agent_handle`, default `agent`), a pending inbox on `FREE_INBOX_DOMAIN` (default
         *     `INBOX_DOMAIN`; also the org's `default_domain` setting, so inboxes it creates later without
         *     naming a domain go there too) and a temporary key that holds only `signup:verify` and
         *     expires with the code. A 6-digit code, valid 15 minutes, is mailed to `email` from `SYSTEM_FROM` (default
         *     `no-reply@<INBOX_DOMAIN>`) by the route approved mail takes: internal delivery when the
         *     address is hosted here, else the `SMTP_URL` relay, else the local outbox. It is never in a
         *     response or a log line, and is stored only as a keyed hash. `201` for a new sign-up.
         *
         *     Signing up again with the same email (compared trimmed and lower-cased) while it is not
         *     verified answers `200` for the same agent and inbox with a new temporary key and a new
         *     code: the old key is revoked (`401`) and the old code no longer works. This also restarts
         *     a sign-up whose code expired or was locked by wrong tries.
         *
         *     Errors: gate closed, `403` legacy `signup_disabled`, nothing created; gate unreadable,
         *     `503` legacy `signup_gate_unavailable` with `Retry-After`; the mail could not be handed to
         *     the relay, `502` legacy `otp_send_failed`, the sign-up stays pending (sign up again to send
         *     a new code). At most 5 sign-ups an hour per email address (`SIGNUP_LIMIT_PER_EMAIL`) and 20
         *     an hour per client address (`SIGNUP_LIMIT_PER_IP`); over either, `429 rate_limited` with
         *     `Retry-After`.
         */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trade the mailed code for the durable agent key.
         * @description Called with the temporary key of `POST /v1/agent/sign-up`. The right code, in one
         *     transaction, revokes the temporary key, issues the durable project key (default
         *     permissions), activates the inbox and answers `{agent_key, inbox_address, quickstart}`;
         *     `quickstart` lists `read_messages`, `get_message` and `wait_for_email` with their paths.
         *     Repeating that same call (the same temporary key and code) answers the same body again.
         *
         *     A wrong code is `400 bad_request` (`errors[0]`: `code`, `wrong_code`) with `tries_left`;
         *     the fifth wrong code locks the sign-up: `409 conflict` (`code`, `locked`) and the temporary
         *     key is revoked. An expired code (15 minutes) is `401 unauthorized` (`code`, `expired`).
         *     Locked or expired, signing up again with the same email sends a new code. A temporary key
         *     replaced by a re-signup is `401`. Gate closed: `403` legacy `signup_disabled`.
         *
         *     A temporary key is refused on every other route with `403 forbidden_scope`.
         */
        post: operations["verifySignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project_id}/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /**
         * List feedback records of the project, newest first.
         * @description With `support:submit` the caller's own records; with `support:read` (on a key not bound to
         *     one inbox) every agent's in the project.
         */
        get: operations["listFeedback"];
        put?: never;
        /**
         * File feedback about a problem, with evidence; a blocked outcome opens a support case.
         * @description The body is the evidence, validated field by field at the contract's limits (one over is
         *     `400 bad_request` naming the field, e.g. `attempts.0.operation`). `client_id` (a UUID) makes
         *     the call idempotent: a retry replays the first answer, committed with the record. The same
         *     evidence filed again by the same agent (under a new `client_id`) raises `repeat_count` on
         *     the first record (answer `200`) instead of making a new one (`201`).
         *     Secrets in any string (agent keys, enrollment tokens, webhook secrets, bearer tokens, JWTs,
         *     one-time codes from mail) are replaced by `[REDACTED]` before storage, and each such field
         *     is named in `redacted_fields`. Each `resource_refs` entry must lie inside the key's ceiling,
         *     else `404` naming it; `diagnostics` records each one's state as the service saw it, and
         *     `observed_runtime` the request. An outcome of `blocked` (or `open_case: true`) opens a
         *     support case, listed in `linked_cases`. `submission_mode: automatic` is `403
         *     forbidden_scope` (`reason` `automatic_feedback_not_enabled`) unless an organization
         *     administrator turned automatic feedback on. A project the key cannot reach is `404` with
         *     `reason`, `next_action` and `projects` (the projects it can reach). Filing feedback never
         *     retries or repeats anything the agent did, a send above all.
         */
        post: operations["submitFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project_id}/feedback/policy": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The reporting policy - whether automatic feedback is on, and the case reopen window. */
        get: operations["getReportingPolicy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project_id}/support-cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        /**
         * A support case with its updates, oldest first.
         * @description Own cases with `support:submit`, others' with `support:read`. A deleted case is `410 support_record_deleted`.
         */
        get: operations["getSupportCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project_id}/support-cases/{id}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply to a support case as the customer, naming the newest update you answer.
         * @description `sequence` is the newest update's `sequence` the reply answers (optimistic context). Without
         *     it: `409 reply_context_required`. Older than the newest: `409 reply_context_changed` with
         *     `latest_update` (its body cut at 2000 characters, `truncated` says so) and the reply's text
         *     as `unsent_text`; nothing is stored. While the previous customer reply has no staff answer:
         *     `409 reply_already_pending`. A case resolved more than 14 days ago: `409
         *     reply_workflow_required` (file new feedback). Each carries the case as `current_state`. A
         *     reply to a case `waiting_on_customer` moves it to `working`; one to a resolved case within
         *     14 days reopens it (`working`). Own cases with `support:submit`, others' with
         *     `support:write`. `client_id` (UUID) makes it idempotent.
         */
        post: operations["replySupportCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/support-settings": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        /** The organization's support reporting policy. */
        get: operations["adminGetSupportSettings"];
        /**
         * Opt the organization in to (or out of) automatic feedback; an administrator only.
         * @description Automatic feedback is off until a person turns it on here; agents (and the SDK) then may file `submission_mode` `automatic`.
         */
        put: operations["adminUpdateSupportSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/support-cases": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** The project's support cases, newest first (deleted ones are left out). */
        get: operations["adminListSupportCases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/support-cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        /** A support case with its updates; a deleted one is `410 support_record_deleted`. */
        get: operations["adminGetSupportCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/support-cases/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        /**
         * The case's updates, oldest first, paged by sequence; members of the project only.
         * @description `cursor` is the `next_cursor` of the previous page. A deleted case is `410 support_record_deleted`.
         */
        get: operations["adminListSupportCaseEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/support-cases/{id}/delete": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete a resolved case (its text is erased); an organization administrator only.
         * @description Only a `resolved` case (else `409 conflict` with `current_state`), and only by an owner or
         *     admin of the whole organization (a project role is `403`). A retry with the same
         *     `client_id` replays the answer; any later read of the case is `410 support_record_deleted`.
         */
        post: operations["adminDeleteSupportCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/support/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Support staff - every org's cases, newest first.
         * @description Only for console identities listed in `SUPPORT_STAFF_EMAILS`; anyone else is `403 forbidden_scope`.
         */
        get: operations["staffListSupportCases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/support/cases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** Support staff - a case of any org with its updates. */
        get: operations["staffGetSupportCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/support/cases/{id}/updates": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Support staff - post an update, optionally moving the case to another status.
         * @description `status` moves the case (each change emits `support_case.status_changed` and mails the
         *     reporting agent's inbox, when it has one, and the org's owners and admins, as system mail); without it the update is a
         *     note. Any staff update answers a pending customer reply. `version` guards against a case
         *     that moved meanwhile (`409 conflict` with `current_state`). The same `client_id` again
         *     returns the update it made.
         */
        post: operations["staffUpdateSupportCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/threads": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        /**
         * Threads of the inbox, most recently active first.
         * @description Messages are grouped by Message-ID, In-Reply-To and References. A message joins the thread
         *     of the first message it refers to (In-Reply-To, then References newest first) that this
         *     inbox has stored, or that another message of the thread also referred to; a message that
         *     an earlier reply referred to joins that reply's thread. A message without usable
         *     references whose subject carries a reply or forward prefix (Re:, Fwd:, AW:, ...) joins the
         *     most recent thread with the same subject (prefixes and list tags removed) that its sender
         *     took part in within 30 days. Anything else starts a thread.
         */
        get: operations["listThreads"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/inboxes/{inbox_id}/threads/{thread_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                thread_id: string;
            };
            cookie?: never;
        };
        /** A thread with every message, oldest first, each with both bodies. */
        get: operations["getThread"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhooks within the key's reach, oldest first; secrets redacted.
         * @description A project key sees its agent's webhooks, an inbox key those naming its inbox. An org key names one
         *     project with `X-Project-Id` (or `*` for every project); without it the list is `400
         *     breadth_required`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook; the signing secret is in this response only.
         * @description Each delivery is a `POST` of JSON with `Content-Type: application/json`, `X-Service-Event` (the
         *     event type) and `X-Service-Signature: t=<unix seconds>,v1=<hex>`, where `v1` is HMAC-SHA256 keyed by
         *     the secret over `<t>.<raw body>`. For `message.received` the body is the contract's table:
         *     `event`, `id` (`evt_...`), `created_at`, `inbox` (address) and `message` (`id`, `thread_id`, `inbox`,
         *     `from` and `to` as raw header strings, `subject`, `text`, `date`, `message_id`, `folder`, `seen`),
         *     plus, beyond the contract, `message.authentication` and `message.screening` (the `Authentication`
         *     and `Screening` of the message record; null when not computed or nothing was flagged).
         *
         *     Choices recorded here beyond the contract:
         *     - `events` (alias `event_types`) defaults to `["message.received"]`. Beyond the contract's
         *       `message.received`, a webhook may name the delivery outcomes of its inboxes' sent mail:
         *       `message.delivered`, `message.bounced`, `message.complained`, `message.delayed` (their body is the
         *       event as the stream sends it: `event`, `id`, `created_at`, `inbox_id`, then `inbox`, `review_id`,
         *       `message_id` (the sender's SENT copy; null for a relay deferral, which comes before it),
         *       `smtp_message_id` (the Message-ID header), `recipient` (one event a recipient), `type` (`hard` or
         *       `soft`, on `message.bounced` and `message.delayed`), `status` (RFC 3463 enhanced status or SMTP
         *       reply code) and `diagnostic`). Giving an alias and its field with different values is `400
         *       bad_request` with code `conflicting_alias`.
         *     - `inbox` (alias `address`) is an inbox id or address within the key's reach; an inbox outside it is
         *       `404`. Null or omitted covers every inbox of the key's agent. A webhook registered by an inbox key
         *       always names that key's inbox.
         *     - `url` must be `http` or `https` and may not reach loopback, private (RFC 1918), CGNAT
         *       (100.64.0.0/10), link-local (including 169.254.169.254), unique-local, multicast, unspecified or
         *       documentation addresses, nor IPv4-mapped forms of them; the host name is resolved and every
         *       address must be public, and again at every delivery (DNS can change), when the connection is made.
         *       A refused target is `400 bad_request` with `errors[0].field = "url"` and code `target_refused`.
         *       `WEBHOOK_ALLOW_PRIVATE=true` lifts the address rule (local development and tests).
         *     - The secret has the form `whsec_<32 characters>`; `secret_prefix` is its first 10 characters.
         *       Secrets are stored encrypted (AES-256-GCM, `ENCRYPTION_KEY`) and never logged.
         *     - Permission `webhook:write`. This service issued no keys before that permission existed, so there
         *       is no read fallback.
         *     - Delivery: a 2xx answer ends it. Redirects are not followed (a 3xx is a failure). Each attempt
         *       times out after 10 s (`WEBHOOK_TIMEOUT_SECONDS`). Retries follow 10 s, 1 m, 5 m, 30 m, 2 h, 6 h,
         *       12 h (`WEBHOOK_RETRY_SCHEDULE`), each ±10 % jitter; after the last the delivery is `failed`.
         *       After 20 consecutive failed attempts across deliveries (`WEBHOOK_DEACTIVATE_AFTER`) the webhook
         *       becomes `active: false`; its pending retries end as `failed`. A success resets the count, and so
         *       does reactivating with PATCH `active: true`.
         *     - `Idempotency-Key` (or `client_id`): a retry within 24 hours replays this response, the secret
         *       included, so a client that lost the first answer still learns the secret.
         *     - Deliveries are at least once: a worker that stops mid-attempt has its attempt run again by
         *       another, so a receiver may see an event twice and recognises it by the body's `id`.
         *     - The org's plan limits its webhooks (`webhook_limit`: free 3, developer 10, startup 50): one more
         *       is `403 quota_exceeded` (`QuotaProblem`, reason `webhook_limit_exceeded`) and nothing is registered.
         */
        post: operations["registerWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** One webhook; the secret redacted. */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook, with its delivery history; pending retries stop. */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change the URL, events, inbox or active flag; omitted fields are unchanged.
         * @description `inbox: null` widens the webhook to every inbox of its agent (refused for an inbox key). A new
         *     `url` is checked as on registration. `active: true` on an inactive webhook reactivates it and
         *     clears its failure count.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /**
         * Deliveries of the webhook, newest first, each with every attempt.
         * @description Each attempt records its number, start, duration, HTTP status (null when no answer came), error
         *     and the time of the next retry. `status` is `pending` (an attempt is queued), `succeeded` or
         *     `failed` (retries exhausted, or the webhook was deactivated). Paged with `limit` and `cursor`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery's event again, as a new delivery with the same event id and a fresh signature.
         * @description The new delivery has its own attempts and retries and names the original in `redelivery_of`. An
         *     inactive webhook is `409 conflict`: reactivate it first.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signing secret; the new one is in this response only.
         * @description For 24 hours (`previous_secret_expires_at`) deliveries carry both signatures,
         *     `t=<unix>,v1=<new>,v1=<old>`, so receivers can switch without losing a delivery. Rotating again
         *     within that window retires the oldest secret at once.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        /** Every webhook of the project, whichever agent owns it, oldest first; secrets redacted. */
        get: operations["adminListWebhooks"];
        put?: never;
        /**
         * Register a webhook for an active agent of the project; the secret is in this response only.
         * @description As `POST /v1/webhooks`, owned by `agent_id` (an unknown agent is `404`, a disabled one `400`).
         *     `inbox` may name any inbox of the project.
         */
        post: operations["adminRegisterWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        /** One webhook of the project; the secret redacted. */
        get: operations["adminGetWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook of the project, with its delivery history; pending retries stop. */
        delete: operations["adminDeleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change the URL, events, inbox or active flag of a webhook of the project; omitted fields are unchanged.
         * @description As `PATCH /v1/webhooks/{id}`: `inbox` may name any inbox of the project (`null` widens the
         *     webhook to every inbox of its agent), a new `url` is checked as on registration, and
         *     `active: true` reactivates a webhook deactivated after its failures and clears its failure
         *     count (then its deliveries can be redelivered).
         */
        patch: operations["adminUpdateWebhook"];
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signing secret of a webhook of the project; the new one is in this response only.
         * @description As `POST /v1/webhooks/{id}/rotate-secret`; both signatures are sent until `previous_secret_expires_at`.
         */
        post: operations["adminRotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        /**
         * The delivery log of a webhook of the project, newest first, each with every attempt.
         * @description The same page as `GET /v1/webhooks/{id}/deliveries`, paged with `limit` and `cursor`.
         */
        get: operations["adminListWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/orgs/{org_id}/projects/{project_id}/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery's event again, as a new delivery with the same event id and a fresh signature.
         * @description As `POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver`; an inactive webhook is `409 conflict`.
         */
        post: operations["adminRedeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Problem: {
            /** Format: uri-reference */
            type: string;
            title: string;
            status: number;
            detail?: string | undefined;
            /**
             * @description The error's code, from the closed registry the service raises its errors from (the served document lists it as `enum`).
             * @enum {string}
             */
            code: "bad_request" | "unauthorized" | "forbidden_scope" | "cross_origin_refused" | "not_found" | "conflict" | "support_record_deleted" | "idempotency_conflict" | "breadth_required" | "quota_exceeded" | "rate_limited" | "domain_not_allowed" | "recipient_blocked" | "recipient_suppressed" | "intent_required" | "wrong_state" | "terminal" | "stale" | "born_stale" | "send_needs_reconciliation" | "graduation_locked" | "maturity_gate_unmet" | "scope_taken" | "not_configured" | "unavailable" | "domain_unavailable" | "internal" | "reply_context_required" | "reply_context_changed" | "reply_workflow_required" | "reply_already_pending";
            request_id?: string | undefined;
            errors?: {
                field: string;
                code: string;
                detail?: string | undefined;
            }[] | undefined;
        } & {
            [key: string]: unknown;
        };
        LegacyError: {
            error: string;
            message: string;
            request_id?: string | undefined;
            reason?: string | undefined;
            /** Format: int64 */
            used?: number | undefined;
            /** Format: int64 */
            delta?: number | undefined;
            /** Format: int64 */
            limit?: number | undefined;
            /** Format: int64 */
            remaining?: number | undefined;
            /** Format: int64 */
            consumed?: number | undefined;
            /** Format: int64 */
            reserved?: number | undefined;
            /**
             * Format: date-time
             * @description Absent for counts that never reset: inboxes, domains, members, webhooks.
             */
            next_reset_at?: string | undefined;
            upgrade_required?: boolean | undefined;
        };
        /**
         * @description A quota refusal on the agent plane: problem+json with `code: quota_exceeded` and the quota
         *     figures at the top level, plus `error` (`quota_exceeded`) and `message` (the `detail`) kept
         *     for readers of the older `{error, message}` envelope.
         */
        QuotaProblem: components["schemas"]["Problem"] & {
            /**
             * @description `inbox_limit_exceeded`, `enrollment_token_mailbox_budget_exhausted`, `recipient_limit_exceeded`,
             *     `daily_message_cap_exceeded`, `monthly_message_quota_exceeded`, `enrollment_token_daily_send_exhausted`,
             *     `webhook_limit_exceeded`, `member_limit_exceeded`
             */
            reason: string;
            /**
             * Format: int64
             * @description consumed plus reserved
             */
            used: number;
            /**
             * Format: int64
             * @description what the refused request would add
             */
            delta: number;
            /** Format: int64 */
            limit: number;
            /** Format: int64 */
            remaining: number;
            /** Format: int64 */
            consumed: number;
            /** Format: int64 */
            reserved: number;
            /**
             * Format: date-time
             * @description When the quota resets (the next UTC day or month, or when the oldest counted send leaves
             *     a rolling window). Absent for counts that never reset: inboxes, a key's mailbox budget,
             *     custom domains, members and webhooks free a slot only when one is deleted.
             */
            next_reset_at?: string | undefined;
            upgrade_required: boolean;
            /** @enum {string} */
            error: "quota_exceeded";
            message: string;
        };
        /**
         * @description An agent permission. A console member mints a key (or an enrollment token) holding it only when the
         *     member's role may do the same act on the console; beyond that the request is `403` (`error: forbidden`) naming
         *     each permission. An org-ceiling key needs `org_admin` (an owner or admin of the whole org, not of
         *     one project) and counts that org-wide role for its permissions. The role each permission needs (`x-granted-by`):
         *     - `mailbox:create`: `write` (owner, admin, member), as for `adminCreateInbox`
         *     - `mailbox:read`: `read` (owner, admin, member, viewer), as for `adminListMessages`
         *     - `mailbox:send`: `write` (owner, admin, member), as for `adminDecideReview`
         *     - `mailbox:delete`: `admin` (owner, admin), as for `adminDeleteInbox`
         *     - `mailbox:credentials`: `admin` (owner, admin): exported IMAP and SMTP credentials read and send as the inbox outside every key, like the inbox settings only an admin changes
         *     - `mailbox:quota`: `admin` (owner, admin), as for `adminUpdateInbox`
         *     - `webhook:write`: `write` (owner, admin, member), as for `adminRegisterWebhook`
         *     - `domain:manage`: `write` (owner, admin, member), as for `adminCreateDomain`
         *     - `commerce:request`: `write` (owner, admin, member): a request only, approved by a billing role; the contract gives it to members
         *     - `review:act`: `write` (owner, admin, member), as for `adminDecideReview`
         *     - `signup:verify`: nobody: held by temporary sign-up keys only
         *     - `domain:purchase`: `write` (owner, admin, member): the legacy form of commerce:request
         *     - `support:submit`: `write` (owner, admin, member): filing feedback writes a record, as members do
         *     - `support:read`: `read` (owner, admin, member, viewer), as for `adminListSupportCases`
         *     - `support:write`: `write` (owner, admin, member): replying on the project's cases writes, as members do
         * @enum {string}
         */
        Permission: "mailbox:create" | "mailbox:read" | "mailbox:send" | "mailbox:delete" | "mailbox:credentials" | "mailbox:quota" | "webhook:write" | "domain:manage" | "commerce:request" | "review:act" | "signup:verify" | "domain:purchase" | "support:submit" | "support:read" | "support:write";
        ClaimableSignup: {
            signup_id: string;
            org_id: string;
            project_id: string;
            agent_id: string;
            agent_handle: string;
            inbox_id: string;
            inbox_address: string;
            /** Format: date-time */
            verified_at: string;
            /** Format: date-time */
            created_at: string;
        };
        ClaimableSignupList: {
            items: components["schemas"]["ClaimableSignup"][];
        };
        Claim: components["schemas"]["ClaimableSignup"] & {
            /** @enum {string} */
            role: "owner";
            /** Format: date-time */
            claimed_at: string;
        };
        /** @enum {string} */
        MemberRole: "owner" | "admin" | "member" | "viewer" | "billing";
        Member: {
            user_id: string;
            email: string;
            role: components["schemas"]["MemberRole"];
            /** @description null for an org-wide membership. */
            project_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        MemberList: {
            items: components["schemas"]["Member"][];
        };
        Invitation: {
            id: string;
            org_id: string;
            email: string;
            role: components["schemas"]["MemberRole"];
            /** @enum {string} */
            status: "pending" | "accepted" | "expired" | "revoked";
            /** Format: date-time */
            expires_at: string;
            invited_by: string;
            /** Format: date-time */
            accepted_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        InvitationCreated: components["schemas"]["Invitation"] & {
            /** @description The raw token, shown once (`pk_invite_<id>_<secret>`). */
            token: string;
            /** @description Whether the mail carrying the token was handed to its route. */
            mailed: boolean;
        };
        InvitationList: {
            items: components["schemas"]["Invitation"][];
        };
        InvitationAccepted: {
            invitation: components["schemas"]["Invitation"];
            org_id: string;
            /**
             * @description The role the user now holds org-wide.
             * @enum {string}
             */
            role: "owner" | "admin" | "member" | "viewer" | "billing";
        };
        SenderHealth: {
            inbox_id: string;
            /** @description Recent sends counted (one per recipient taken). */
            sends: number;
            /** @description Of them, hard-bounced. */
            bounces: number;
            complaints: number;
            bounce_rate: number;
            complaint_rate: number;
            /** @description New sends from the inbox wait for a human (`mode_reason: sender_health`). */
            held: boolean;
            /** @enum {string|null} */
            reason: "bounce_rate" | "complaint_rate" | null;
            limits: {
                min_sends: number;
                max_bounce_rate: number;
                max_complaint_rate: number;
                window: number;
            };
            /** Format: date-time */
            cleared_at: string | null;
        };
        ReviewSettings: {
            /** @enum {string} */
            default_review_policy: "require_review" | "allow_direct";
            /** Format: double */
            min_confidence: number;
            first_contact_gate: boolean;
            drift_demote_after: number;
            /** Format: double */
            canary_rate: number;
            graduate_min_approvals: number;
            graduate_min_age_hours: number;
            auto_send_cap_per_day: number;
            /** Format: date-time */
            updated_at?: string | null | undefined;
        };
        ConsoleReview: components["schemas"]["Review"] & {
            feedback_history?: components["schemas"]["ReviewFeedback"][] | undefined;
            /** @description The project's rules high-water now. */
            current_rules_version: number;
            /** @description The draft was composed under older rules than the staleness tolerance allows (as the category backlog counts needs_redraft). */
            rules_stale: boolean;
            delivery?: components["schemas"]["RecipientDelivery"][] | undefined;
        };
        MachineSnapshot: {
            kind: string;
            id: string;
            org_id?: string | undefined;
            project_id?: string | undefined;
            state: string;
            version: number;
            machine_version: number;
            snapshot: Record<string, never>;
            transitions: {
                version?: number | undefined;
                event?: Record<string, never> | undefined;
                from_state?: string | null | undefined;
                to_state?: string | undefined;
                actions?: Record<string, never>[] | undefined;
                /** Format: date-time */
                created_at?: string | undefined;
            }[];
            allowed_actions: string[];
            diagram: components["schemas"]["MachineGraph"];
        };
        /**
         * @description A machine's definition as data, in document order (deterministic): the state a new
         *     instance starts in (`initial`, before its first event: a transition with `from_state`
         *     null leaves it), its states, and one edge per event and guard (a transition that keeps
         *     the state is an edge from a state to itself).
         */
        MachineGraph: {
            initial: string;
            states: {
                name: string;
                /** @description No event leaves a final state. */
                final: boolean;
            }[];
            edges: {
                from: string;
                to: string;
                event: string;
                /** @description The named guard that must hold for the edge to be taken. */
                guard: string | null;
            }[];
        };
        RuleCreate: {
            /** @description At most 2000 characters. */
            rule_text: string;
            /**
             * @description Default `general`.
             * @enum {string}
             */
            scope?: "general" | "category" | undefined;
            /** @description Required when `scope` is `category`, and only then. */
            category_id?: string | null | undefined;
            /** @description A per-agent override: the rule applies to this agent only. */
            scope_agent_id?: string | null | undefined;
            /**
             * @description Default `soft`; a hard rule is not overridden by any lower rule.
             * @enum {string}
             */
            kind?: "soft" | "hard" | undefined;
            /** @description Default 0; higher first within a rung of the ladder. */
            priority?: number | undefined;
            /**
             * @description Default `active`.
             * @enum {string}
             */
            status?: "proposed" | "active" | undefined;
        };
        RuleRevise: {
            /** @description At most 2000 characters. */
            rule_text?: string | undefined;
            /**
             * @description Default `general`.
             * @enum {string}
             */
            scope?: "general" | "category" | undefined;
            /** @description Required when `scope` is `category`, and only then. */
            category_id?: string | null | undefined;
            /** @description A per-agent override: the rule applies to this agent only. */
            scope_agent_id?: string | null | undefined;
            /**
             * @description Default `soft`; a hard rule is not overridden by any lower rule.
             * @enum {string}
             */
            kind?: "soft" | "hard" | undefined;
            /** @description Default 0; higher first within a rung of the ladder. */
            priority?: number | undefined;
        };
        RuleFromReview: {
            /** @description At most 2000 characters. */
            rule_text: string;
            /**
             * @description Default `general`.
             * @enum {string}
             */
            scope?: "general" | "category" | undefined;
            /** @description Required when `scope` is `category`, and only then. */
            category_id?: string | null | undefined;
            /** @description A per-agent override: the rule applies to this agent only. */
            scope_agent_id?: string | null | undefined;
            /**
             * @description Default `soft`; a hard rule is not overridden by any lower rule.
             * @enum {string}
             */
            kind?: "soft" | "hard" | undefined;
            /** @description Default 0; higher first within a rung of the ladder. */
            priority?: number | undefined;
        };
        Rule: {
            /** @description `rule_...` */
            id: string;
            /** @enum {string} */
            rule_layer: "org" | "project";
            org_id: string;
            /** @description Empty for an org-layer rule. */
            project_id: string;
            /** @description `rln_...`, stable across revisions. */
            lineage_id: string;
            rev: number;
            /** @enum {string} */
            scope: "general" | "category";
            category_id?: string | null | undefined;
            scope_agent_id?: string | null | undefined;
            rule_text: string;
            /** @enum {string} */
            kind: "soft" | "hard";
            priority: number;
            /** @enum {string} */
            status: "proposed" | "active" | "superseded" | "retired";
            supersedes_id?: string | null | undefined;
            /** @enum {string} */
            author_kind: "agent" | "human";
            /** @description The review whose edit the rule was proposed from; null otherwise. */
            source_review_id?: string | null | undefined;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        RuleList: {
            data: components["schemas"]["Rule"][];
            /** @description On a project's list, the project's rules version (the high-water every draft is checked against, as `rules_version` of `GET /v1/rules`); absent on the org layer's list. */
            rules_version?: number | undefined;
        };
        RuleAudit: {
            /** @description `udo_...`, the id to undo. */
            id: string;
            lineage_id: string;
            /** @enum {string} */
            action: "create" | "revise" | "activate" | "retire" | "undo";
            /** @description The rule before the change; null for a creation. */
            before: components["schemas"]["Rule"] | null;
            after: components["schemas"]["Rule"];
            actor_email: string | null;
            /** Format: date-time */
            undone_at: string | null;
            /** @description The audit row of the undo. */
            undone_by: string | null;
            /** Format: date-time */
            created_at: string;
        };
        RuleAuditList: {
            data: components["schemas"]["RuleAudit"][];
        };
        OrgSettings: {
            org_name: string;
            default_domain: string;
            /** @enum {string} */
            default_onboarding_mode: "enrollment_token" | "self_signup" | "invitation_only";
            default_mailbox_cap: number | null;
            webhook_signing_prefix: string;
            /** @enum {string} */
            x402_mode: "off" | "test" | "live";
            early_access: boolean;
        };
        Org: {
            id: string;
            name: string;
            /** @enum {string} */
            plan_tier: "free" | "developer" | "startup" | "enterprise";
            /** @enum {string} */
            default_review_policy: "require_review" | "allow_direct";
            /** Format: date-time */
            created_at: string;
            projects: components["schemas"]["Project"][];
        };
        Project: {
            id: string;
            org_id: string;
            name: string;
            /** Format: date-time */
            created_at: string;
        };
        Agent: {
            id: string;
            org_id: string;
            project_id: string;
            handle: string;
            display_name?: string | null | undefined;
            /** @enum {string} */
            status: "active" | "disabled";
            /** Format: date-time */
            created_at: string;
        };
        AgentList: {
            items: components["schemas"]["Agent"][];
        };
        ApiKey: {
            id: string;
            agent_id: string;
            prefix: string;
            /** @enum {string} */
            ceiling: "org" | "project" | "inbox";
            inbox_id?: string | null | undefined;
            permissions: components["schemas"]["Permission"][];
            /** Format: date-time */
            expires_at?: string | null | undefined;
            /** Format: date-time */
            revoked_at?: string | null | undefined;
            /** Format: date-time */
            created_at: string;
        };
        ApiKeyCreated: components["schemas"]["ApiKey"] & {
            /** @description The raw key, shown once. */
            key: string;
        };
        ApiKeyList: {
            items: components["schemas"]["ApiKey"][];
        };
        EnrollmentToken: {
            id: string;
            prefix: string;
            label?: string | null | undefined;
            scopes?: components["schemas"]["Permission"][] | null | undefined;
            allowed_domains?: string[] | null | undefined;
            max_mailboxes?: number | null | undefined;
            mailboxes_created?: number | undefined;
            daily_send_limit?: number | null | undefined;
            reusable: boolean;
            redemptions?: number | undefined;
            /** Format: date-time */
            expires_at?: string | null | undefined;
            /** Format: date-time */
            revoked_at?: string | null | undefined;
            /** Format: date-time */
            created_at: string;
        };
        EnrollmentTokenCreated: components["schemas"]["EnrollmentToken"] & {
            /** @description The raw token, shown once (`pk_enroll_<id>_<secret>`). */
            token: string;
        };
        EnrollmentTokenList: {
            items: components["schemas"]["EnrollmentToken"][];
        };
        Enrollment: {
            /** @description The raw key, shown once (`pk_agent_...`). */
            agent_key: string;
            key_id: string;
            org_id: string;
            project_id: string;
            agent_id: string;
            agent_handle: string;
            permissions: components["schemas"]["Permission"][];
            /** @description True when this redemption created the agent. */
            created: boolean;
        };
        Me: {
            org_id: string;
            /** @description null for an org-ceiling key */
            project_id: string | null;
            agent_id: string;
            agent_handle?: string | undefined;
            key_id: string;
            /** @enum {string} */
            ceiling: "org" | "project" | "inbox";
            inbox_id?: string | null | undefined;
            permissions: components["schemas"]["Permission"][];
            /** Format: date-time */
            expires_at?: string | null | undefined;
            /**
             * @description What the agent may still send (recipients), -1 when unlimited: today under its org's plan
             *     daily cap, this month under the plan's monthly quota (sent recipients plus received
             *     messages), and today under its enrollment key's daily allowance (null without one). Queued
             *     sends count until they are delivered, cancelled, rejected or fail.
             */
            sending: {
                /** @enum {string} */
                plan_tier: "free" | "developer" | "startup" | "enterprise";
                /** Format: int64 */
                daily_message_cap: number;
                /** Format: int64 */
                daily_remaining: number;
                /** Format: int64 */
                monthly_message_quota: number;
                /** Format: int64 */
                monthly_remaining: number;
                /** Format: int64 */
                enrollment_daily_send_limit: number | null;
                /** Format: int64 */
                enrollment_daily_remaining: number | null;
            };
        };
        /**
         * @description A plan tier's capacities; -1 is unlimited (custom, for enterprise). decisions.md fixes inboxes
         *     and monthly messages per tier and the free daily cap; the other numbers are this service's
         *     defaults, and a deployment replaces any of them with `PLANS_FILE`. Messages are counted as
         *     recipients sent plus message copies received (one per receiving inbox).
         */
        Plan: {
            /** @enum {string} */
            tier: "free" | "developer" | "startup" | "enterprise";
            name: string;
            /** Format: int64 */
            monthly_price_cents: number;
            /** Format: int64 */
            domain_annual_com_reference_cents: number;
            /**
             * Format: int64
             * @description Inbound plus outbound a UTC month (free 3,000; developer 10,000; startup 150,000).
             */
            included_messages_monthly: number;
            /** Format: int64 */
            inbox_limit: number;
            /** Format: int64 */
            custom_domain_limit: number;
            /**
             * Format: int64
             * @description Stored mail (raw sources with attachments): free 1 GiB, developer 10 GiB, startup 100 GiB.
             */
            storage_bytes: number;
            /** Format: int64 */
            pod_limit: number;
            /**
             * Format: int64
             * @description Webhooks of the org (free 3, developer 10, startup 50).
             */
            webhook_limit: number;
            /**
             * Format: int64
             * @description Console members of the org (free 3, developer 5, startup 25).
             */
            member_limit: number;
            checkout_available?: boolean | undefined;
            custom?: boolean | undefined;
            /**
             * Format: int64
             * @description Recipients sent a UTC day (free 100; paid tiers -1, bounded by the monthly quota).
             */
            daily_message_cap?: number | undefined;
        };
        Usage: {
            billing_owner_id: string;
            customer_id: string;
            /** @description `YYYY-MM` */
            month: string;
            /**
             * Format: int64
             * @description Sends delivered.
             */
            sent_messages: number;
            /**
             * Format: int64
             * @description Recipients of the sends delivered.
             */
            sent_recipients: number;
            /**
             * Format: int64
             * @description Messages received (one per message and org).
             */
            received_messages: number;
            /**
             * Format: int64
             * @description Copies stored of received messages (one per receiving inbox).
             */
            received_recipients: number;
            /**
             * Format: int64
             * @description sent_recipients plus received_recipients - what the monthly quota counts.
             */
            total_messages: number;
            /**
             * Format: int64
             * @description Alias of storage_used_bytes.
             */
            storage_bytes: number;
            /** Format: int64 */
            storage_used_bytes: number;
            /** Format: int64 */
            storage_peak_used_bytes: number;
            /**
             * Format: int64
             * @description -1 means unlimited or custom.
             */
            storage_included_bytes: number;
            /** Format: int64 */
            storage_over_limit_bytes: number;
            /** Format: int64 */
            storage_peak_over_limit_bytes: number;
            /** Format: int64 */
            storage_mailbox_count: number;
            storage_quota_exceeded: boolean;
            /**
             * Format: int64
             * @description -1 unlimited.
             */
            message_quota_limit: number;
            /**
             * Format: int64
             * @description -1 unlimited.
             */
            message_quota_remaining: number;
            message_quota_exceeded: boolean;
            /** Format: date-time */
            storage_captured_at?: string | undefined;
        };
        Subscription: {
            org_id: string;
            customer_id: string;
            /** @enum {string} */
            plan_tier: "free" | "developer" | "startup" | "enterprise";
            status: string;
            cancel_at_period_end: boolean;
            /** Format: date-time */
            current_period_start?: string | undefined;
            /** Format: date-time */
            current_period_end?: string | undefined;
            payment_customer_id?: string | undefined;
            payment_price_id?: string | undefined;
            payment_subscription_id?: string | undefined;
            payment_subscription_item_id?: string | undefined;
        };
        BillingSummary: {
            org_id: string;
            customer_id: string;
            /** @description Org id used for plan and monthly usage enforcement. */
            billing_owner_id: string;
            /** @enum {string} */
            payment_mode: "test" | "live";
            payment_configured: boolean;
            /** @enum {string} */
            plan_tier: "free" | "developer" | "startup" | "enterprise";
            entitlements: components["schemas"]["Plan"];
            usage: components["schemas"]["Usage"];
            plans: components["schemas"]["Plan"][];
            subscription: components["schemas"]["Subscription"];
        };
        /** @description Per-category values over the account risk dial; an omitted field, or `null` for the whole object, inherits it. */
        CategoryRisk: {
            min_confidence?: number | undefined;
            first_contact_gate?: boolean | undefined;
            drift_demote_after?: number | undefined;
            canary_rate?: number | undefined;
            graduate_min_approvals?: number | undefined;
            graduate_min_age_hours?: number | undefined;
        } | null;
        CategoryCreate: {
            /** @description Display name; mutable, never a reference key. */
            name: string;
            /** @description Matcher text the agent reads. */
            description?: string | undefined;
            /**
             * @description Default `org_shared`.
             * @enum {string}
             */
            scope?: "org_shared" | "agent_private" | undefined;
            /** @description The agent an `agent_private` category belongs to; required with it and only with it. */
            agent_id?: string | null | undefined;
            risk?: components["schemas"]["CategoryRisk"] | undefined;
        };
        Category: {
            /** @description `cat_...` */
            id: string;
            name: string;
            description: string;
            /** @enum {string} */
            scope: "org_shared" | "agent_private";
            agent_id: string | null;
            /** @enum {string} */
            rung: "supervised" | "auto_notify" | "autonomous";
            /** @description Pinned at supervised (never_graduate). */
            pinned: boolean;
            /** @description Clean approvals in a row at the current rung. */
            clean_approvals: number;
            /** @description Edits or rejections in a row. */
            drift_count: number;
            risk: components["schemas"]["CategoryRisk"];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CategoryList: {
            data: components["schemas"]["Category"][];
        };
        CategoryBacklog: {
            category_id: string;
            /** @description Drafts in needs_review, in_review or chatting. */
            queued: number;
            /** @description Queued drafts composed within `staleness_tolerance` versions of the rules high-water. */
            current_enough: number;
            /** @description Queued drafts composed under older rules. */
            needs_redraft: number;
            /** @description How many rules versions behind a draft may be and still count current-enough (0, as for a redraft's born_stale check). */
            staleness_tolerance: number;
            /** @description The project's rules high-water. */
            rules_version: number;
        };
        Contact: {
            /** @description `con_...` */
            id: string;
            inbox_id: string;
            /** @enum {string} */
            kind: "allow" | "block";
            pattern: string;
            /** @enum {string} */
            direction: "send" | "receive";
            /** Format: date-time */
            created_at: string;
        };
        ContactList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Contact"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        Suppression: {
            email: string;
            /** @enum {string} */
            origin: "agent" | "unsubscribe" | "delivery";
            reason: string | null;
            /** Format: date-time */
            created_at: string;
        };
        SuppressionList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Suppression"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        DomainCreate: {
            /** @description Fully qualified, such as `mail.example.com`. */
            domain: string;
        };
        DomainRecord: {
            /** @enum {string} */
            kind: "ownership" | "mx" | "spf" | "dkim" | "dmarc";
            /** @enum {string} */
            type: "TXT" | "MX";
            /** @description Fully qualified name to publish the record at. */
            host: string;
            /** @description The record to publish (MX: the exchange host). */
            value: string;
            /** @description MX only. */
            priority?: number | undefined;
            /** @description Needed for `verified`; DMARC is a suggestion. */
            required: boolean;
            /**
             * @description `pending`: not checked yet.
             * @enum {string}
             */
            status: "pending" | "pass" | "fail" | "temperror";
            /** @description What the last lookup answered (MX as `priority host`). */
            found: string[];
            detail: string | null;
        };
        Domain: {
            /** @description `dom_...` */
            id: string;
            domain: string;
            org_id: string;
            project_id: string;
            /** @enum {string} */
            status: "pending" | "verified" | "degraded";
            dkim_selector: string;
            records: components["schemas"]["DomainRecord"][];
            inbox_count: number;
            /** Format: date-time */
            checked_at: string | null;
            /** Format: date-time */
            verified_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        DomainList: {
            items: components["schemas"]["Domain"][];
            total: number;
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable";
            checks: {
                database: boolean;
                migrations: boolean;
                queue: boolean;
            };
        };
        Address: {
            /** @description Display name; empty when none. */
            name: string;
            email: string;
        };
        EffectiveReviewPolicy: {
            /** @enum {string} */
            policy: "require_review" | "allow_direct";
            /** @enum {string} */
            source: "account_default" | "inbox_override";
        };
        Inbox: {
            /** @description `inb_...` */
            id: string;
            address: string;
            display_name: string | null;
            org_id: string;
            project_id: string;
            agent_id: string;
            domain: string;
            /**
             * @description null inherits the org default.
             * @enum {string|null}
             */
            review_policy: "require_review" | "allow_direct" | null;
            effective_review_policy: components["schemas"]["EffectiveReviewPolicy"];
            recipient_limit_24h: number;
            webhook_url: string | null;
            /** Format: date-time */
            created_at: string;
            included?: components["schemas"]["InboxIncluded"] | undefined;
        };
        /** @description Present only when `include` asked for something; holds only what was asked. */
        InboxIncluded: {
            /** @description The owning agent; null when outside the key's ceiling. */
            agent?: components["schemas"]["Agent"] | null | undefined;
            /** @description The custom domain record of an inbox on one (status and records); null for an inbox on the service's own domain (`INBOX_DOMAIN`). */
            domain?: components["schemas"]["Domain"] | null | undefined;
        };
        InboxList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Inbox"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        /** @enum {string} */
        Folder: "INBOX" | "SENT" | "DRAFTS" | "TRASH" | "SPAM";
        Attachment: {
            /** @description `att_...` */
            id: string;
            filename: string | null;
            content_type: string;
            /** @description Decoded bytes. */
            size: number;
            content_id: string | null;
            inline: boolean;
        };
        AttachmentList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Attachment"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        MessageEnvelope: {
            /** @description `msg_...`; names its inbox. */
            id: string;
            /** @description The inbox address. */
            inbox: string;
            inbox_id: string;
            /** @description `thr_...` */
            thread_id: string;
            folder: components["schemas"]["Folder"];
            seen: boolean;
            /** @enum {string} */
            direction: "inbound" | "outbound";
            from: components["schemas"]["Address"] | null;
            to: components["schemas"]["Address"][];
            cc: components["schemas"]["Address"][];
            reply_to: components["schemas"]["Address"][];
            /** @description Decoded (RFC 2047); empty when none. */
            subject: string;
            /**
             * Format: date-time
             * @description The Date header, null when missing or unreadable.
             */
            date: string | null;
            /** @description The Message-ID header with angle brackets; null when the message has none. */
            message_id: string | null;
            in_reply_to: string | null;
            references: string[];
            /** @description Bytes of the raw message. */
            size: number;
            /**
             * Format: date-time
             * @description When it was stored, whole milliseconds.
             */
            received_at: string;
            /** @description The review of a message sent through the Review Loop. */
            review_id: string | null;
            /** @description Why the MIME could not be read fully; the raw source is kept. */
            parse_error: string | null;
            authentication: components["schemas"]["Authentication"];
            screening: components["schemas"]["Screening"];
            /**
             * @description How an inbound message said it was sent automatically, or null: `auto-submitted: <value>` (RFC 3834,
             *     any value but `no`), `x-autoreply`, `x-autorespond`, `x-auto-response-suppress`, `precedence: bulk`
             *     (or `auto_reply`, `list`, `junk`), `out-of-office` (an auto-reply or out-of-office subject). A
             *     reply to such a message carries `Auto-Submitted: auto-replied`, and one that answers an
             *     auto-submitted answer to this inbox's own mail is held with `mode_reason: loop_suspected`.
             */
            auto_submitted: string | null;
            attachments: components["schemas"]["Attachment"][];
            included?: components["schemas"]["MessageIncluded"] | undefined;
        };
        Verdict: {
            /** @description As mailauth reports it: `pass`, `fail`, `softfail`, `neutral`, `none`, `policy`, `temperror`, `permerror`. */
            result: string;
            /** @description SPF: the MAIL FROM domain; DKIM: the signing domain (`d=`); DMARC: the From domain; ARC: the latest sealer. */
            domain: string | null;
        };
        /**
         * @description SPF (against the SMTP client's address and MAIL FROM), DKIM, DMARC and ARC verdicts computed
         *     when the message arrived over SMTP; null for internal delivery, SENT copies and mail stored
         *     before verdicts existed. The lookups are bounded (`INBOUND_AUTH_TIMEOUT_SECONDS`, default 2):
         *     past the bound, or when DNS does not answer, a verdict is `temperror` and the message is stored.
         *     `authenticated` is true when DMARC passes, or when the From domain has no DMARC record and
         *     a DKIM signature of that domain (or a parent of it) passes.
         */
        Authentication: {
            spf: components["schemas"]["Verdict"];
            dkim: components["schemas"]["Verdict"];
            dmarc: components["schemas"]["Verdict"];
            arc: components["schemas"]["Verdict"];
            authenticated: boolean;
        } | null;
        /**
         * @description Why the message should not be acted on without a human, or null when screening found
         *     nothing. Reasons: `dmarc_fail`; `prompt_injection` (the text gives the agent instructions:
         *     "ignore previous instructions", "system prompt", a `system:` turn, `<instructions>` tags);
         *     `hidden_text` (HTML text hidden by its style); `lookalike_domain` (an IDN label, a domain a
         *     letter or two from the inbox's own or a well-known one, or a display name carrying another
         *     domain's address). `risk` is `high` with any reason but `lookalike_domain` alone
         *     (`medium`). A reply to or forward of a flagged message is queued for a human even under
         *     `allow_direct` or a graduated category.
         */
        Screening: {
            /** @enum {string} */
            risk: "high" | "medium";
            reasons: ("dmarc_fail" | "prompt_injection" | "hidden_text" | "lookalike_domain")[];
        } | null;
        /** @description Present only when `include` asked for something; holds only what was asked. */
        MessageIncluded: {
            inbox?: components["schemas"]["Inbox"] | undefined;
            thread?: components["schemas"]["Thread"] | null | undefined;
        };
        MessageSummary: components["schemas"]["MessageEnvelope"] & {
            preview: string;
        };
        Message: components["schemas"]["MessageEnvelope"] & {
            text?: string | null | undefined;
            html?: string | null | undefined;
            extracted_text?: string | null | undefined;
            extracted_html?: string | null | undefined;
            /** @description On a sent copy (a message with a `review_id`, direction `outbound`) only. */
            delivery?: components["schemas"]["RecipientDelivery"][] | undefined;
        };
        /**
         * @description What became of a sent mail for one recipient: its latest report. `delivered` (the relay or the
         *     hosted inbox took it), `delayed` (a relay deferral or a delay notice), `bounced` (`type` hard or
         *     soft), `complained`. A bounce, complaint or delay reported after the relay took the mail wins
         *     over that `delivered`. A recipient with no report yet is not listed.
         */
        RecipientDelivery: {
            recipient: string;
            /** @enum {string} */
            status: "delivered" | "delayed" | "bounced" | "complained";
            /** @enum {string|null} */
            type: "hard" | "soft" | null;
            /** @description RFC 3463 enhanced status (`5.1.1`), or the SMTP reply code. */
            status_code: string | null;
            diagnostic: string | null;
            /** Format: date-time */
            updated_at: string;
        };
        MessageSummaryList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["MessageSummary"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        SearchResults: {
            /** @enum {string} */
            object: "list";
            data: (components["schemas"]["MessageSummary"] & {
                rank: number;
            })[];
            has_more: boolean;
            next_cursor: string | null;
        };
        WaitResult: {
            message: components["schemas"]["Message"] | null;
            /** @description With `extract: code`. */
            code?: string | undefined;
            /** @description With `extract: link`. */
            link?: string | undefined;
            /** @description Present and true when no message came in time. */
            timed_out?: boolean | undefined;
        };
        NotificationPreference: {
            /** @enum {string} */
            mode: "instant" | "digest" | "off";
            digest_minutes: number;
            /** Format: date-time */
            updated_at: string | null;
        };
        ChatopsChannel: {
            webhook_url: string | null;
            /** Format: date-time */
            updated_at: string | null;
        };
        NotificationHistory: {
            notifications: {
                id: string;
                revision: number;
                /** @enum {string} */
                reason: "created" | "revised" | "handed_back" | "escalated" | "deadline_near" | "auto_sent";
                /** @enum {string} */
                channel: "mail" | "digest" | "chatops";
                email: string | null;
                /** @enum {string} */
                status: "pending" | "sent" | "skipped" | "failed";
                route: string | null;
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                sent_at: string | null;
            }[];
            decisions: {
                revision: number;
                action: string;
                email: string;
                /** @enum {string} */
                via: "console" | "mail_link" | "mail_reply";
                /** Format: date-time */
                at: string;
            }[];
        };
        ProblemType: {
            /**
             * Format: uri
             * @description This page: `{problems_base}/<code>`.
             */
            type: string;
            code: string;
            title: string;
            /** @description The HTTP status it usually comes with. */
            status: number;
            /** @description When the service answers with this code. */
            meaning: string;
            /** @description What a client should do about it. */
            action: string;
        };
        ProblemTypeList: {
            data: components["schemas"]["ProblemType"][];
        };
        ReviewLinkCreate: {
            inbox_address?: string | null | undefined;
            reviewer_agent_id: string;
            /** @enum {string} */
            transport?: "webhook" | "sse" | "websocket" | undefined;
            webhook_url?: string | null | undefined;
            hmac_secret?: string | undefined;
            escalate_after_s?: number | undefined;
            max_hops?: number | undefined;
            review_deadline_s?: number | undefined;
        };
        ReviewLinkUpdate: {
            inbox_address?: string | null | undefined;
            reviewer_agent_id?: string | undefined;
            /** @enum {string} */
            transport?: "webhook" | "sse" | "websocket" | undefined;
            webhook_url?: string | null | undefined;
            hmac_secret?: string | undefined;
            escalate_after_s?: number | undefined;
            max_hops?: number | undefined;
            review_deadline_s?: number | undefined;
            active?: boolean | undefined;
        };
        /** @description A review link (contract, "Review link"); the secret is never echoed, `has_secret` says whether one is set. */
        ReviewLink: {
            id: string;
            /** @description Empty for the project-wide scope. */
            inbox_address: string;
            reviewer_agent_id: string;
            /** @enum {string} */
            transport: "webhook" | "sse" | "websocket";
            webhook_url: string | null;
            has_secret: boolean;
            escalate_after_s: number;
            max_hops: number;
            review_deadline_s: number;
            active: boolean;
            consec_failures: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ReviewLinkList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["ReviewLink"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        /**
         * @description A work item: what a reviewer agent decides on. The same body is pushed to a webhook link
         *     (`X-Service-Event: reviewer.work`). `reason` says why it arrived (`created`, `revised`,
         *     `handed_back`, `chat`; `queued` when read from the queue). `thread` holds the last five
         *     messages of the thread a reply belongs to, oldest first; `feedback` every note, edit and
         *     chat line so far; `allowed_actions` the reviewer's verbs now.
         */
        ReviewerWork: {
            /** @enum {string} */
            object: "reviewer_work";
            review_id: string;
            reason: string;
            /** Format: date-time */
            routed_at: string | null;
            revision: number;
            draft: Record<string, never>;
            intent: Record<string, never> | null;
            rules_version: number;
            allowed_actions: components["schemas"]["ReviewAction"][];
            review: components["schemas"]["Review"];
            thread: {
                id?: string | undefined;
                direction?: string | undefined;
                from?: components["schemas"]["Address"] | undefined;
                to?: components["schemas"]["Address"][] | undefined;
                subject?: string | undefined;
                text?: string | null | undefined;
                /** Format: date-time */
                received_at?: string | undefined;
            }[];
            feedback: components["schemas"]["ReviewFeedback"][];
        };
        ReviewerWorkList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["ReviewerWork"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        /** @enum {string} */
        ReviewState: "needs_review" | "in_review" | "chatting" | "approved" | "edited" | "rejected" | "sending_auto" | "sent" | "auto_sent" | "failed" | "cancelled";
        /** @enum {string} */
        ReviewAction: "open" | "approve" | "edit" | "reject" | "chat" | "hand_back" | "revise" | "restamp" | "cancel";
        /**
         * @description A review record. `allowed_actions` are the verbs the caller may use now, read off the review
         *     machine: on the agent plane the composer's (`revise`, `restamp`, `chat`, `cancel`), on the
         *     console the human reviewer's (`open`, `approve`, `edit`, `reject`, `chat`, `cancel`).
         *
         *     The 409 taxonomy of every review verb: `wrong_state` (the verb is illegal in this state),
         *     `stale` (`parent_revision` is not current; nothing changed), `send_needs_reconciliation` (a
         *     delivery is unconfirmed and parked; it is never sent again) each carry `errors[]` entries
         *     `{field: state, code: <state>}`, `{field: revision, code: <n>}`, `{field: version, code: <n>}`
         *     and one `{field: allowed_action, code: <verb>}` per verb legal now (`detail` repeats the
         *     value, and `value` holds it typed); `terminal` (already `sent`, `auto_sent` or `cancelled`) carries
         *     `sent_message_id` instead, and appends a `review.front_run_next` event holding the outcome.
         *     `revision` counts composer revisions (1 on submission); a reviewer's edit changes the draft
         *     without a new revision. `version` counts every transition.
         *
         *     Beyond decisions.md: `kind` (send, reply, forward), `parent_message_id` (the message replied
         *     to or forwarded), `send_needs_reconciliation`, `last_error` (of a failed or parked delivery),
         *     `cancel_reason` and `cancelled_by` (`composer`, `human` or `deadline`), and `draft.attachments`
         *     (name, type and size of each). `deadline_at` is set when `REVIEW_DEADLINE_SECONDS` is; at it
         *     a live review is cancelled with reason `deadline_exceeded` (a review routed to a reviewer agent
         *     has its link's `review_deadline_s`). `route` is `reviewer_agent` while a review link's
         *     reviewer agent (`reviewer_agent_id`) has it, else `human`; `hops` counts its hand-backs,
         *     and at `max_hops` the review goes to the human. Humans can decide whatever the route.
         */
        Review: {
            id: string;
            state: components["schemas"]["ReviewState"];
            revision: number;
            version: number;
            inbox_id: string;
            agent_id: string;
            /** @enum {string} */
            kind: "send" | "reply" | "forward";
            category_id: string | null;
            /** @enum {string} */
            effective_mode: "review" | "auto";
            /**
             * @description Why the send was held for review or released. Held: `review_policy` (no category, the
             *     policy needs a human), `screening` (it replies to or forwards a flagged message: always
             *     the human), `loop_suspected` (it may be one turn of a mail loop: the agent sent
             *     `LOOP_MAX_SENDS` mails into the thread within `LOOP_WINDOW_MINUTES`, or it answers an
             *     auto-submitted mail that itself answered this inbox's mail; always the human, whatever the
             *     policy or category), `sender_health` (the inbox's recent sends bounce or draw complaints past
             *     the limits; always the human, until a human clears it with
             *     `POST /v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/sender-health/clear`),
             *     `category_supervised`, `first_contact_gate` (a first mail to a
             *     recipient of this inbox), `min_confidence` (`intent.meta.confidence` below the dial's),
             *     `canary_rate` (the share of an autonomous category's sends still reviewed, fixed per
             *     review id), `auto_send_cap` (the customer's auto-sends of the UTC day reached
             *     `auto_send_cap_per_day`). Released: `allow_direct`, `category_auto_notify`,
             *     `category_autonomous`.
             * @enum {string|null}
             */
            mode_reason?: "review_policy" | "screening" | "loop_suspected" | "sender_health" | "allow_direct" | "category_supervised" | "first_contact_gate" | "min_confidence" | "canary_rate" | "auto_send_cap" | "category_auto_notify" | "category_autonomous" | null | undefined;
            /** @enum {string} */
            route: "human" | "reviewer_agent";
            hops: number;
            max_hops?: number | undefined;
            /** @description The reviewer agent the review is routed to; null while routed to the human. */
            reviewer_agent_id?: string | null | undefined;
            draft: {
                to: components["schemas"]["Address"][];
                cc: components["schemas"]["Address"][];
                subject: string | null;
                text: string | null;
                thread_id: string | null;
                in_reply_to: string | null;
                attachments: {
                    filename?: string | null | undefined;
                    content_type?: string | undefined;
                    size?: number | undefined;
                }[];
            };
            parent_message_id?: string | null | undefined;
            /**
             * @description Set when the send replies to or forwards a message screening flagged (`Screening` on the
             *     message; for a reply, the answered message or an earlier flagged one of the thread): such a
             *     send is queued for the human (`route: human`) even under `allow_direct`, a graduated category
             *     or a review link, and this says why.
             */
            screening?: {
                message_id: string;
                /** @enum {string} */
                risk: "high" | "medium";
                reasons: string[];
            } | null | undefined;
            intent: {
                summary?: string | undefined;
                meta?: Record<string, never> | undefined;
            } | null;
            rules_version: number;
            /** @description The latest reviewer feedback. */
            feedback: string | null;
            /** @description The SENT copy (`msg_...`). */
            sent_message_id: string | null;
            send_needs_reconciliation?: boolean | undefined;
            last_error?: string | null | undefined;
            cancel_reason?: string | null | undefined;
            /** @enum {string|null} */
            cancelled_by?: "composer" | "human" | "deadline" | null | undefined;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** Format: date-time */
            deadline_at: string | null;
            allowed_actions: components["schemas"]["ReviewAction"][];
        };
        ReviewList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Review"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        ReviewFeedback: {
            seq: number;
            /** @enum {string} */
            kind: "approve" | "edit" | "reject" | "hand_back" | "chat";
            /** @enum {string} */
            author: "composer" | "human" | "reviewer_agent";
            revision: number;
            feedback: string | null;
            /** @description A chat message. */
            message: string | null;
            /** @description For an edit, per changed field (`subject`, `text`) the value before and after and a line diff. */
            diff: {
                field?: string | undefined;
                before?: string | null | undefined;
                after?: string | null | undefined;
                lines?: {
                    /** @enum {string} */
                    op?: " " | "-" | "+" | undefined;
                    line?: string | undefined;
                }[] | undefined;
            }[] | null;
            /** Format: date-time */
            created_at: string;
        };
        /**
         * @description A review event: `review.created`, `review.needs_review`, `review.in_review`, `review.chat`,
         *     `review.approved`, `review.rejected`, `review.edited`, `review.sent`, `review.auto_sent`,
         *     `review.failed`, `review.cancelled`, and `review.front_run_next` (a verb hit a finished
         *     review: `outcome` `sent` or `cancelled`, `attempted_action`, `sent_message_id`). The same
         *     payload is published to the event log (`GET /v1/events/stream`).
         */
        ReviewEventItem: {
            seq: number;
            review_id: string;
            type: string;
            state: string;
            from_state: string | null;
            category_id: string | null;
            revision: number;
            /** @enum {string} */
            effective_mode: "review" | "auto";
            /** Format: date-time */
            created_at: string;
            outcome?: string | undefined;
            attempted_action?: string | undefined;
            sent_message_id?: string | null | undefined;
        };
        ReviewEventList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["ReviewEventItem"][];
            has_more: boolean;
            next_cursor: string | null;
            /** @description On the long poll only. */
            timed_out?: boolean | undefined;
        };
        ReviewCursor: {
            review_id: string;
            through_seq: number;
        };
        RuleLadder: {
            /** @description The project's rules high-water. */
            rules_version: number;
            data: components["schemas"]["Rule"][];
        };
        RuleProposal: {
            /** @description At most 2000 characters. */
            rule_text: string;
            /**
             * @description Default `general`.
             * @enum {string}
             */
            scope?: "general" | "category" | undefined;
            /** @description Required when `scope` is `category`, and only then. */
            category_id?: string | null | undefined;
            /** @description A per-agent rule. */
            scope_agent_id?: string | null | undefined;
            /**
             * @description Default `soft`.
             * @enum {string}
             */
            kind?: "soft" | "hard" | undefined;
            /** @description Default 0. */
            priority?: number | undefined;
        };
        /**
         * @description One string (`a@x.example`, `"Dana" <dana@acme.example>` or several separated by commas), or
         *     a list of such strings or of `{email, name}`. Each address counts once.
         */
        Recipients: string | (string | {
            email: string;
            name?: string | undefined;
        })[];
        /**
         * @description `{summary, meta?}`: `summary` 8-200 characters saying who, what and why; `meta` optional
         *     `{goal, recipient, prior_touches, urgency}`. Checked in code (see the send description):
         *     a given but invalid intent is `400 bad_request` naming the field (`intent`,
         *     `intent.summary` or `intent.meta`); `intent_required` means no intent was given.
         */
        SendIntent: unknown;
        SendAttachments: {
            filename?: string | undefined;
            content_type?: string | undefined;
            /** @description base64 */
            content: string;
            content_id?: string | undefined;
            inline?: boolean | undefined;
        }[];
        SendAccepted: {
            /**
             * @description `queued_for_review`: a human decides (follow the review events until `review.sent`,
             *     `review.failed` or `review.cancelled`). `released`: the policy sends without a human;
             *     delivery follows at once (`review.auto_sent` or `review.failed`).
             * @enum {string}
             */
            outcome: "queued_for_review" | "released";
            /** @description `rr_...` */
            review_id: string;
            state: string;
            revision: number;
            version: number;
            /** @enum {string} */
            effective_mode: "review" | "auto";
            effective_review_policy: components["schemas"]["EffectiveReviewPolicy"];
            review: components["schemas"]["Review"];
        };
        Signup: {
            agent_id: string;
            /** @description Pending until the code is verified. */
            inbox_address: string;
            /** @description A `pk_agent_...` key holding only `signup:verify`; shown once. */
            temporary_key: string;
            /**
             * Format: date-time
             * @description When the code and the temporary key expire.
             */
            expires_at: string;
        };
        SignupVerified: {
            /** @description The durable key (`pk_agent_...`). */
            agent_key: string;
            key_id: string;
            agent_id: string;
            org_id: string;
            project_id: string;
            inbox_id: string;
            inbox_address: string;
            quickstart: {
                /** @enum {string} */
                name: "read_messages" | "get_message" | "wait_for_email";
                method: string;
                path: string;
            }[];
        };
        FeedbackEvidenceFields: {
            /** Format: uuid */
            client_id?: string | undefined;
            /**
             * @description Default `explicit`.
             * @enum {string}
             */
            submission_mode?: "explicit" | "automatic" | undefined;
            /** @enum {string} */
            category?: "unexpected_error" | "incorrect_result" | "missing_capability" | "confusing_behavior" | "other" | undefined;
            user_intent?: string | undefined;
            expected_behavior?: string | undefined;
            observed_behavior?: string | undefined;
            /** @enum {string} */
            outcome?: "blocked" | "completed_with_workaround" | "observation" | undefined;
            attempts?: components["schemas"]["FeedbackAttempt"][] | undefined;
            resource_refs?: components["schemas"]["FeedbackResourceRef"][] | undefined;
            client_versions?: components["schemas"]["FeedbackClientVersions"] | undefined;
        };
        FeedbackAttempt: {
            operation: string;
            http_status?: number | undefined;
            error_code?: string | undefined;
            summary?: string | undefined;
        };
        FeedbackResourceRef: {
            /**
             * @description `submission` refs always answer 404 - durable submissions are not built here.
             * @enum {string}
             */
            type: "inbox" | "review" | "submission" | "thread" | "domain";
            id: string;
        };
        FeedbackClientVersions: {
            mcp?: string | undefined;
            sdk?: string | undefined;
            host?: string | undefined;
            skill?: string | undefined;
            runtime?: string | undefined;
            os?: string | undefined;
        };
        FeedbackSubmission: {
            /** Format: uuid */
            client_id: string;
            /**
             * @description Default `explicit`.
             * @enum {string}
             */
            submission_mode?: "explicit" | "automatic" | undefined;
            /** @enum {string} */
            category: "unexpected_error" | "incorrect_result" | "missing_capability" | "confusing_behavior" | "other";
            user_intent: string;
            expected_behavior?: string | undefined;
            observed_behavior: string;
            /** @enum {string} */
            outcome: "blocked" | "completed_with_workaround" | "observation";
            attempts?: components["schemas"]["FeedbackAttempt"][] | undefined;
            resource_refs?: components["schemas"]["FeedbackResourceRef"][] | undefined;
            client_versions?: components["schemas"]["FeedbackClientVersions"] | undefined;
            /** @description Open a support case even when the outcome is not `blocked`. */
            open_case?: boolean | undefined;
        };
        FeedbackRecord: {
            id: string;
            project_id: string;
            evidence: components["schemas"]["FeedbackEvidenceFields"];
            /** Format: int64 */
            repeat_count: number;
            /** Format: int64 */
            created_ms: number;
            /** Format: int64 */
            updated_ms: number;
            api_build: string;
            /** @description Dotted paths within `evidence` whose secrets were replaced by `[REDACTED]`. */
            redacted_fields: string[];
            diagnostics: {
                type?: string | undefined;
                id?: string | undefined;
                state?: string | undefined;
                /** Format: int64 */
                observed_ms?: number | undefined;
                org_id?: string | undefined;
            }[];
            observed_runtime: {
                source?: string | undefined;
                package_version?: string | null | undefined;
                profile?: string | null | undefined;
                profile_version?: string | null | undefined;
                build?: string | undefined;
                /** @description `mcp` when the call came through the MCP server (its `X-Client-Transport` header), else `http`. */
                transport?: string | undefined;
                catalog_digest?: string | null | undefined;
                instance_id?: string | undefined;
                request_id?: string | undefined;
                /** Format: int64 */
                observed_ms?: number | undefined;
            };
            linked_cases: {
                id: string;
                project_id: string;
                /** @enum {string} */
                status: "received" | "working" | "waiting_on_customer" | "resolved";
                /** Format: int64 */
                version: number;
            }[];
            linked_cases_truncated: boolean;
        };
        FeedbackList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["FeedbackRecord"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        ReportingPolicy: {
            /** @description Whether a person opted the organization in to automatic feedback. */
            automatic_feedback: boolean;
            /** @description Days after resolution during which a customer reply reopens a case. */
            reopen_window_days: number;
        };
        SupportSettings: {
            automatic_feedback: boolean;
        };
        SupportCase: {
            id: string;
            /** Format: int64 */
            number: number;
            project_id: string;
            org_id?: string | undefined;
            title: string;
            /** @enum {string} */
            status: "received" | "working" | "waiting_on_customer" | "resolved";
            /** @enum {string} */
            impact: "blocked" | "workaround_available" | "recovered" | "unknown";
            /** Format: int64 */
            version: number;
            /** Format: int64 */
            created_ms: number;
            /** Format: int64 */
            updated_ms: number;
            feedback_id: string;
            /** Format: int64 */
            resolved_ms?: number | null | undefined;
            /** Format: int64 */
            customer_confirmed_ms?: number | null | undefined;
            resolution_kind?: string | null | undefined;
            resolution_summary?: string | null | undefined;
            console_url?: string | undefined;
        };
        SupportCaseUpdate: {
            id: string;
            /** Format: int64 */
            sequence: number;
            /** @description `reply` (customer), `note` or `status_change` (staff). */
            kind: string;
            /** @enum {string} */
            actor_kind: "customer" | "staff";
            body: string;
            /** Format: int64 */
            created_ms: number;
            observed_runtime?: Record<string, never> | undefined;
        };
        SupportCaseWithUpdates: components["schemas"]["SupportCase"] & {
            updates: components["schemas"]["SupportCaseUpdate"][];
        };
        SupportCaseList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["SupportCase"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        SupportCaseUpdateList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["SupportCaseUpdate"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        SupportCaseUpdateResult: {
            case: components["schemas"]["SupportCase"];
            update: components["schemas"]["SupportCaseUpdate"];
        };
        SupportCaseDeleted: {
            id: string;
            deleted: boolean;
        };
        SupportCaseReply: {
            /** Format: uuid */
            client_id: string;
            body: string;
            /**
             * Format: int64
             * @description The newest update's sequence this reply answers (0 when the case has none).
             */
            sequence?: number | undefined;
        };
        SupportStaffUpdate: {
            /** Format: uuid */
            client_id: string;
            body: string;
            /** @enum {string} */
            status?: "received" | "working" | "waiting_on_customer" | "resolved" | undefined;
            resolution_kind?: string | undefined;
            resolution_summary?: string | undefined;
            /** Format: int64 */
            version?: number | undefined;
        };
        Thread: {
            /** @description `thr_...`, opaque. */
            id: string;
            inbox_id: string;
            /** @description The subject of the thread's first stored message. */
            subject: string;
            /** @description Addresses from from, to and cc of its messages (at most 100). */
            participants: string[];
            message_count: number;
            /** @description The newest message. */
            last_message_id: string | null;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description When its newest message was received.
             */
            updated_at: string;
            /** @description Present only when `include` asked for something. */
            included?: {
                inbox?: components["schemas"]["Inbox"] | undefined;
            } | undefined;
        };
        ThreadWithMessages: components["schemas"]["Thread"] & {
            messages: components["schemas"]["Message"][];
        };
        ThreadList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Thread"][];
            has_more: boolean;
            next_cursor: string | null;
        };
        WebhookEvents: ("message.received" | "message.delivered" | "message.bounced" | "message.complained" | "message.delayed")[];
        WebhookCreate: {
            /** Format: uri */
            url: string;
            events?: components["schemas"]["WebhookEvents"] | undefined;
            event_types?: components["schemas"]["WebhookEvents"] | undefined;
            /** @description Inbox id or address; null for every inbox of the agent. */
            inbox?: string | null | undefined;
            /** @description Alias of `inbox`, the field a webhook's answers carry; both only when equal. */
            inbox_id?: string | null | undefined;
            /** @description Legacy alias of `inbox`. */
            address?: string | null | undefined;
            /** @description Alias of the Idempotency-Key header. */
            client_id?: string | undefined;
        };
        AdminWebhookCreate: {
            /** Format: uri */
            url: string;
            events?: components["schemas"]["WebhookEvents"] | undefined;
            event_types?: components["schemas"]["WebhookEvents"] | undefined;
            inbox?: string | null | undefined;
            /** @description Alias of `inbox`. */
            inbox_id?: string | null | undefined;
            address?: string | null | undefined;
            client_id?: string | undefined;
            /** @description The owning agent; must be active. */
            agent_id: string;
        };
        WebhookUpdate: {
            /** Format: uri */
            url?: string | undefined;
            events?: components["schemas"]["WebhookEvents"] | undefined;
            event_types?: components["schemas"]["WebhookEvents"] | undefined;
            inbox?: string | null | undefined;
            /** @description Alias of `inbox`. */
            inbox_id?: string | null | undefined;
            address?: string | null | undefined;
            active?: boolean | undefined;
        };
        Webhook: {
            /** @description `wh_...` */
            id: string;
            /** Format: uri */
            url: string;
            events: string[];
            /** @description Address of the one inbox covered; null covers every inbox of the agent. */
            inbox: string | null;
            inbox_id: string | null;
            agent_id: string;
            project_id?: string | undefined;
            /** @description The first 10 characters of the secret, to tell secrets apart. */
            secret_prefix: string;
            /**
             * Format: date-time
             * @description After a rotation, until when deliveries also carry the previous secret's signature.
             */
            previous_secret_expires_at?: string | null | undefined;
            active: boolean;
            /** @description Consecutive failed attempts across deliveries. */
            consec_failures: number;
            /** Format: date-time */
            deactivated_at?: string | null | undefined;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        WebhookCreated: components["schemas"]["Webhook"] & {
            /** @description The HMAC signing secret (`whsec_...`), shown once. */
            secret: string;
        };
        WebhookList: {
            items: components["schemas"]["Webhook"][];
            total: number;
        };
        WebhookAttempt: {
            /** @description 1 for the first attempt. */
            attempt: number;
            /** Format: date-time */
            started_at: string;
            duration_ms: number;
            /** @description null when no HTTP answer came (timeout, refused connection). */
            status_code: number | null;
            error: string | null;
            /** Format: date-time */
            next_retry_at: string | null;
        };
        WebhookDelivery: {
            /** @description `whd_...` */
            id: string;
            webhook_id: string;
            /** @description `evt_...`, the `id` in the delivered body. */
            event_id: string;
            event_type: string;
            redelivery_of?: string | null | undefined;
            /** @enum {string} */
            status: "pending" | "succeeded" | "failed";
            attempt_count: number;
            last_status_code?: number | null | undefined;
            last_error?: string | null | undefined;
            /** Format: date-time */
            next_attempt_at?: string | null | undefined;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            completed_at?: string | null | undefined;
            attempts: components["schemas"]["WebhookAttempt"][];
        };
        WebhookDeliveryList: {
            items: components["schemas"]["WebhookDelivery"][];
            next_cursor: string | null;
        };
    };
    responses: {
        /** @description An error, as problem+json. */
        Problem: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description An error in the legacy envelope. */
        Legacy: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["LegacyError"];
            };
        };
        /**
         * @description `recipient_blocked` or a missing permission, or the recipient limit (`quota_exceeded`, a
         *     `QuotaProblem`); all problem+json.
         */
        SendForbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["QuotaProblem"] | components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /** @description Page size, default 50, clamped to 1-100. */
        Limit: number;
        /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
        Cursor: string;
        /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
        Include: string;
        OrgId: string;
        ProjectId: string;
        /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
        IdempotencyKey: string;
        CategoryId: string;
        /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
        DomainName: string;
        /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
        InboxId: string;
        /**
         * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
         *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
         */
        ProjectPick: string;
        /** @description `msg_...` */
        MessageId: string;
        /** @description The folder to read, default `INBOX`. */
        Folder: components["schemas"]["Folder"];
        /** @description `rr_...` */
        ReviewId: string;
        /** @description One state or several separated by commas. */
        ReviewStateFilter: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    adminListClaims: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The claimable sign-ups, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClaimableSignupList"];
                };
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
        };
    };
    adminClaimSignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The `sgn_...` id from the list. */
                    signup_id: string;
                };
            };
        };
        responses: {
            /** @description Already claimed by the caller; the same claim. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Claim"];
                };
            };
            /** @description Claimed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Claim"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminListMessages: {
        parameters: {
            query?: {
                q?: string | undefined;
                folder?: components["schemas"]["Folder"] | undefined;
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSummaryList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetMessageHtml: {
        parameters: {
            query?: {
                remote_images?: boolean | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The html document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetMessageRaw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The raw message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "message/rfc822": string;
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                thread_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadWithMessages"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminRemoveMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminChangeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    role: components["schemas"]["MemberRole"];
                };
            };
        };
        responses: {
            /** @description The members after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberList"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminListInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationList"];
                };
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    role?: components["schemas"]["MemberRole"] | undefined;
                    /** @default 168 */
                    expires_in_hours?: number | undefined;
                };
            };
        };
        responses: {
            /** @description Invited. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCreated"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminRevokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                invitation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminResendInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                invitation_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationCreated"];
                };
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminAcceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationAccepted"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminGetReviewSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewSettings"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUpdateReviewSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    default_review_policy?: "require_review" | "allow_direct" | undefined;
                    min_confidence?: number | undefined;
                    first_contact_gate?: boolean | undefined;
                    drift_demote_after?: number | undefined;
                    canary_rate?: number | undefined;
                    graduate_min_approvals?: number | undefined;
                    graduate_min_age_hours?: number | undefined;
                    auto_send_cap_per_day?: number | undefined;
                };
            };
        };
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewSettings"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetSenderHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbox's sender health. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SenderHealth"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminClearSenderHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbox's sender health after clearing. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SenderHealth"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminDeleteInbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminUpdateInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                inbox_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string|null} */
                    review_policy?: "require_review" | "allow_direct" | null | undefined;
                    recipient_limit_24h?: number | undefined;
                };
            };
        };
        responses: {
            /** @description The inbox. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListReviews: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                /** @description One state or several separated by commas. */
                state?: components["parameters"]["ReviewStateFilter"] | undefined;
                inbox_id?: string | undefined;
                agent_id?: string | undefined;
                /** @description true: only sends parked with an unknown delivery outcome. */
                needs_reconciliation?: boolean | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of reviews. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The review, with `feedback_history` (every note, edit diff and chat message, oldest first). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleReview"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminDecideReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "open" | "approve" | "reject" | "edit" | "chat" | "cancel";
                    parent_revision?: number | undefined;
                    feedback?: string | null | undefined;
                    text?: string | undefined;
                    subject?: string | undefined;
                    message?: string | undefined;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The review after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminStreamEvents: {
        parameters: {
            query?: {
                /** @description Comma-separated event types; all when omitted. */
                types?: string | undefined;
                /** @description Resume after this event id. */
                last_event_id?: string | undefined;
            } | undefined;
            header?: {
                /** @description Resume after this event id; wins over `last_event_id`. */
                "Last-Event-ID"?: string | undefined;
            } | undefined;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetMachine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                kind: string;
                machine_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The machine. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MachineSnapshot"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListRules: {
        parameters: {
            query?: {
                status?: "proposed" | "active" | "superseded" | "retired" | undefined;
                lineage_id?: string | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminCreateRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleCreate"];
            };
        };
        responses: {
            /** @description The rule. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminReviseRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleRevise"];
            };
        };
        responses: {
            /** @description The new revision. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminActivateRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminRetireRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminListRuleAudit: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The audit rows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleAuditList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUndoRuleChange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                udo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The restored rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminListOrgRules: {
        parameters: {
            query?: {
                status?: "proposed" | "active" | "superseded" | "retired" | undefined;
                lineage_id?: string | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminCreateOrgRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleCreate"];
            };
        };
        responses: {
            /** @description The rule. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminReviseOrgRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleRevise"];
            };
        };
        responses: {
            /** @description The new revision. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminActivateOrgRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminRetireOrgRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                rule_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminListOrgRuleAudit: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The audit rows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleAuditList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUndoOrgRuleChange: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                udo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The restored rule. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminProposeRuleFromReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                review_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleFromReview"];
            };
        };
        responses: {
            /** @description The proposed rule. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminGetOrgSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgSettings"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminUpdateOrgSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    org_name?: string | undefined;
                    default_domain?: string | undefined;
                    /** @enum {string} */
                    default_onboarding_mode?: "enrollment_token" | "self_signup" | "invitation_only" | undefined;
                    default_mailbox_cap?: number | null | undefined;
                    webhook_signing_prefix?: string | undefined;
                    /** @enum {string} */
                    x402_mode?: "off" | "test" | "live" | undefined;
                    early_access?: boolean | undefined;
                };
            };
        };
        responses: {
            /** @description The settings after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgSettings"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @default Default */
                    project_name?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
        };
    };
    adminGetMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        orgs: {
                            id: string;
                            name: string;
                            /** @enum {string|null} */
                            role: "owner" | "admin" | "member" | "viewer" | "billing" | null;
                            projects: components["schemas"]["Project"][];
                        }[];
                    };
                };
            };
            401: components["responses"]["Legacy"];
        };
    };
    adminGetOrg: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The org. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminListAgents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agents. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentList"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    handle: string;
                    display_name?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminListAgentKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateAgentKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default project
                     * @enum {string}
                     */
                    ceiling?: "org" | "project" | "inbox" | undefined;
                    inbox_id?: string | undefined;
                    permissions?: components["schemas"]["Permission"][] | undefined;
                    expires_in_hours?: number | undefined;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyCreated"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminRevokeAgentKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                agent_id: string;
                key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked (also when it already was). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminListEnrollmentTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollmentTokenList"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminIssueEnrollmentToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    label?: string | undefined;
                    scopes?: components["schemas"]["Permission"][] | undefined;
                    allowed_domains?: string[] | undefined;
                    max_mailboxes?: number | undefined;
                    daily_send_limit?: number | undefined;
                    /** @default false */
                    reusable?: boolean | undefined;
                    expires_in_hours?: number | undefined;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrollmentTokenCreated"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminRevokeEnrollmentToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked (also when it already was). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    redeemEnrollment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `pk_enroll_<id>_<secret>` */
                    token: string;
                    agent_handle: string;
                    client_id?: string | undefined;
                    display_name?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Existing agent for this handle; a new key for it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Enrollment"];
                };
            };
            /** @description New agent and key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Enrollment"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            429: components["responses"]["Problem"];
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's fixed org, project, agent, ceiling and permissions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            401: components["responses"]["Problem"];
        };
    };
    adminGetBilling: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingSummary"];
                };
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminGetBillingUsage: {
        parameters: {
            query?: {
                /** @description `YYYY-MM` (UTC); default the current month. */
                month?: string | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The month's usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminChangePlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    tier: "free" | "developer" | "startup" | "enterprise";
                };
            };
        };
        responses: {
            /** @description The summary under the new plan. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingSummary"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    tier: "free" | "developer" | "startup" | "enterprise";
                };
            };
        };
        responses: {
            /** @description A checkout session at the payment provider, once one is configured (this version has none, so it always answers 503). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        checkout_url: string;
                    };
                };
            };
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            /** @description `not_configured` (legacy envelope, `error: not_configured`) - no payment provider is configured; permanent, not retryable. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegacyError"];
                };
            };
        };
    };
    listCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The categories. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryList"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    getCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getBacklogStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backlog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryBacklog"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListCategories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The categories. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryList"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminCreateCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CategoryCreate"];
            };
        };
        responses: {
            /** @description The category. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUpdateCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | undefined;
                    description?: string | undefined;
                    risk?: components["schemas"]["CategoryRisk"] | undefined;
                };
            };
        };
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGraduateCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminDemoteCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminPinCategory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Default true. */
                    pinned?: boolean | undefined;
                };
            };
        } | undefined;
        responses: {
            /** @description The category. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Category"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminGetCategoryBacklog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                category_id: components["parameters"]["CategoryId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The backlog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryBacklog"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listContacts: {
        parameters: {
            query: {
                inbox_id: string;
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            };
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    addContact: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    inbox_id: string;
                    /** @enum {string} */
                    kind: "allow" | "block";
                    pattern: string;
                    /**
                     * @default send
                     * @enum {string}
                     */
                    direction?: "send" | "receive" | undefined;
                };
            };
        };
        responses: {
            /** @description Already listed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            /** @description Added. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contact"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    removeContact: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                contact_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listSuppressions: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuppressionList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    suppressEmail: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    reason?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Already suppressed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suppression"];
                };
            };
            /** @description Suppressed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suppression"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    checkSuppression: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        suppressed: boolean;
                        /** @enum {string} */
                        origin?: "agent" | "unsubscribe" | "delivery" | undefined;
                        reason?: string | null | undefined;
                        /** Format: date-time */
                        created_at?: string | undefined;
                    };
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    unsuppressEmail: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Lifted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listDomains: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domains. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    createDomain: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainCreate"];
            };
        };
        responses: {
            /** @description Onboarded. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            /** @description Missing permission (`forbidden_scope`) or the plan's domain limit (`quota_exceeded`, a `QuotaProblem`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaProblem"] | components["schemas"]["Problem"];
                };
            };
            409: components["responses"]["Problem"];
        };
    };
    requestDomainPurchase: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    domain: string;
                };
            };
        };
        responses: {
            /** @description Passed to the registrar, in a deployment that has one (never in a self-hosted one). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            503: components["responses"]["Problem"];
        };
    };
    getDomain: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    deleteDomain: {
        parameters: {
            query?: {
                delete_inboxes?: boolean | undefined;
            } | undefined;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Offboarded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    verifyDomain: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain after the check. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminListDomains: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domains. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainList"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DomainCreate"];
            };
        };
        responses: {
            /** @description Onboarded. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminGetDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminDeleteDomain: {
        parameters: {
            query?: {
                delete_inboxes?: boolean | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Offboarded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    adminVerifyDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description The fully qualified domain name, or the domain's id (`dom_...`). */
                domain: components["parameters"]["DomainName"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain after the check. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Domain"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                /** @description Comma-separated event types; all when omitted. */
                types?: string | undefined;
                /** @description Resume after this event id, exactly as an event carried it. */
                last_event_id?: string | undefined;
            } | undefined;
            header?: {
                /** @description Resume after this event id; wins over `last_event_id`. */
                "Last-Event-ID"?: string | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready; `checks` says what failed. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getOpenApiYaml: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                };
            };
        };
    };
    getOpenApiJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    listInboxes: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
            } | undefined;
            header?: {
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of inboxes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    createInbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    display_name?: string | null | undefined;
                    /** @description Local part of the address; generated when omitted. */
                    username?: string | undefined;
                    /**
                     * @description A verified custom domain of the project (see `/v1/domains`), or `INBOX_DOMAIN` (the
                     *     default). Another is `400` naming `domain` (code `not_found`, or `not_verified` for a
                     *     domain still pending or degraded).
                     */
                    domain?: string | undefined;
                    /**
                     * Format: uri
                     * @description Stored with the inbox; delivery of `message.received` to it is configured with webhooks.
                     *     Checked as a webhook's `url` is: a target on a private, loopback or link-local
                     *     address (unless `WEBHOOK_ALLOW_PRIVATE`), or a host that does not resolve, is
                     *     `400` naming `webhook_url` (code `target_refused`).
                     */
                    webhook_url?: string | null | undefined;
                    /** @description Idempotency key, alias of the `Idempotency-Key` header. */
                    client_id?: string | undefined;
                };
            };
        } | undefined;
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            /** @description Missing permission (`forbidden_scope`) or a quota (`quota_exceeded`, a `QuotaProblem`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaProblem"] | components["schemas"]["Problem"];
                };
            };
            409: components["responses"]["Problem"];
            429: components["responses"]["Problem"];
        };
    };
    getInbox: {
        parameters: {
            query?: {
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
            } | undefined;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The inbox. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    deleteInbox: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    updateInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    recipient_limit_24h: number;
                };
            };
        };
        responses: {
            /** @description The inbox after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListInboxes: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of inboxes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxList"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminCreateInbox: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    agent_id: string;
                    display_name?: string | null | undefined;
                    domain_id?: string | undefined;
                    domain?: string | undefined;
                    username?: string | undefined;
                    /**
                     * Format: uri
                     * @description Checked as on `POST /v1/inboxes`.
                     */
                    webhook_url?: string | null | undefined;
                };
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inbox"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
            409: components["responses"]["Legacy"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description The folder to read, default `INBOX`. */
                folder?: components["parameters"]["Folder"] | undefined;
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
            } | undefined;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSummaryList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getMessage: {
        parameters: {
            query?: {
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
                format?: "auto" | "text" | "html" | "both" | undefined;
                variant?: "source" | "extracted" | undefined;
            } | undefined;
            header?: never;
            path: {
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getMessageRaw: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The raw message. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "message/rfc822": string;
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listAttachments: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attachments. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttachmentList"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                /** @description `msg_...` */
                message_id: components["parameters"]["MessageId"];
                attachment_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The content. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    searchMessages: {
        parameters: {
            query?: {
                q?: string | undefined;
                from?: string | undefined;
                to?: string | undefined;
                subject?: string | undefined;
                folder?: components["schemas"]["Folder"] | undefined;
                after?: string | undefined;
                before?: string | undefined;
                has_attachment?: boolean | undefined;
                /** @description true: only messages whose `authentication.authenticated` is true; false: only the others (unverified, failing, or stored before verdicts). */
                authenticated?: boolean | undefined;
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
            } | undefined;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of results. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResults"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    batchUpdateMessages: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    updates: {
                        id: string;
                        seen?: boolean | undefined;
                        folder?: components["schemas"]["Folder"] | undefined;
                    }[];
                };
            };
        };
        responses: {
            /** @description The updated messages. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSummaryList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    waitForEmail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    from?: string | undefined;
                    subject_contains?: string | undefined;
                    /** @description true: only a message whose From domain was authenticated (`authentication.authenticated`); false: only one whose was not. */
                    authenticated?: boolean | undefined;
                    /** Format: date-time */
                    since?: string | undefined;
                    /** @default 30 */
                    timeout_seconds?: number | undefined;
                    /** @enum {string} */
                    extract?: "code" | "link" | undefined;
                };
            };
        } | undefined;
        responses: {
            /** @description The message, or a timeout. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WaitResult"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetNotificationPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preference. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreference"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminSetNotificationPreferences: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    mode?: "instant" | "digest" | "off" | undefined;
                    digest_minutes?: number | undefined;
                };
            };
        };
        responses: {
            /** @description The preference after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationPreference"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetChatops: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channel. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatopsChannel"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminSetChatops: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uri */
                    webhook_url: string | null;
                };
            };
        };
        responses: {
            /** @description The channel after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatopsChannel"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminReviewNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationHistory"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    decisionLinkPage: {
        parameters: {
            query?: {
                action?: "approve" | "reject" | undefined;
            } | undefined;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not a valid link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The link can no longer decide; the page says why. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    decisionLinkDecide: {
        parameters: {
            query?: {
                action?: "approve" | "reject" | undefined;
            } | undefined;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    /** @enum {string} */
                    action?: "approve" | "reject" | undefined;
                    feedback?: string | undefined;
                };
            };
        } | undefined;
        responses: {
            /** @description Decided. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not a valid link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Nothing was decided; the page says why. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    listProblems: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The problem types. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ProblemTypeList"];
                };
            };
        };
    };
    getProblem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The problem type. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["ProblemType"];
                };
            };
            404: components["responses"]["Problem"];
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    getApiReferenceScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/javascript": string;
                };
            };
        };
    };
    listGuides: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The index of the guides. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    getGuide: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                page: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page, or the picture. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "image/png": string;
                };
            };
            404: components["responses"]["Problem"];
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Problem"];
        };
    };
    adminListReviewLinks: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of links. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewLinkList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminCreateReviewLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewLinkCreate"];
            };
        };
        responses: {
            /** @description The link. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewLink"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    adminDeleteReviewLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                link_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUpdateReviewLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                link_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewLinkUpdate"];
            };
        };
        responses: {
            /** @description The link. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewLink"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    decideReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "open" | "approve" | "reject" | "edit" | "chat" | "hand_back";
                    parent_revision?: number | undefined;
                    feedback?: string | null | undefined;
                    text?: string | undefined;
                    subject?: string | undefined;
                    message?: string | undefined;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The review after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    getReviewerQueue: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of work items. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewerWorkList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    streamReviewerWork: {
        parameters: {
            query?: {
                /** @description Resume after this item id, exactly as the stream sent it. */
                last_event_id?: string | undefined;
            } | undefined;
            header?: {
                /** @description Resume after this item id; wins over `last_event_id`. */
                "Last-Event-ID"?: string | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream; each event's data is a `ReviewerWork`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    reviewerSocket: {
        parameters: {
            query?: {
                /** @description Resume after this item id, exactly as a `work` frame carried it. */
                last_event_id?: string | undefined;
            } | undefined;
            header?: {
                /** @description Resume after this item id; wins over `last_event_id`. */
                "Last-Event-ID"?: string | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Switching protocols; the socket is open. */
            101: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    listReviewEvents: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                review_id?: string | undefined;
                inbox_id?: string | undefined;
            } | undefined;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewEventList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    waitForReviewEvent: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                timeout_seconds?: number | undefined;
                review_id?: string | undefined;
                inbox_id?: string | undefined;
            } | undefined;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending events, or a timeout. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewEventList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    ackReviewEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    acks?: {
                        review_id: string;
                        through_seq: number;
                    }[] | undefined;
                    broadcast_ids?: string[] | undefined;
                };
            };
        };
        responses: {
            /** @description The cursors. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cursors: components["schemas"]["ReviewCursor"][];
                    };
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listReviews: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                /** @description One state or several separated by commas. */
                state?: components["parameters"]["ReviewStateFilter"] | undefined;
                inbox_id?: string | undefined;
            } | undefined;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of reviews. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The review, with `delivery` (what became of its mail, per recipient). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"] & {
                        delivery?: components["schemas"]["RecipientDelivery"][] | undefined;
                    };
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getReviewFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feedback. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        review_id: string;
                        data: components["schemas"]["ReviewFeedback"][];
                    };
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    cancelReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    reason?: string | undefined;
                    client_id?: string | undefined;
                };
            };
        } | undefined;
        responses: {
            /** @description The cancelled review. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    restampReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    parent_revision: number;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The review. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    reviseReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    parent_revision: number;
                    rules_version?: number | undefined;
                    to?: components["schemas"]["Recipients"] | undefined;
                    cc?: components["schemas"]["Recipients"] | undefined;
                    subject?: string | undefined;
                    text?: string | undefined;
                    /** @deprecated */
                    body?: string | undefined;
                    intent?: components["schemas"]["SendIntent"] | undefined;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The review. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            413: components["responses"]["Problem"];
            422: components["responses"]["Problem"];
        };
    };
    chatReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                /** @description `rr_...` */
                review_id: components["parameters"]["ReviewId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    message: string;
                    parent_revision?: number | undefined;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The review. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Review"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    unsubscribePage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not a valid link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    unsubscribe: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/x-www-form-urlencoded": {
                    "List-Unsubscribe"?: string | undefined;
                    email?: string | undefined;
                };
            };
        } | undefined;
        responses: {
            /** @description Unsubscribed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not a valid link. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    getRules: {
        parameters: {
            query?: {
                category_id?: string | undefined;
            } | undefined;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ladder. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RuleLadder"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    proposeRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RuleProposal"];
            };
        };
        responses: {
            /** @description The proposed rule. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Rule"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    sendEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    to: components["schemas"]["Recipients"];
                    cc?: components["schemas"]["Recipients"] | undefined;
                    subject?: string | undefined;
                    text?: string | undefined;
                    /**
                     * @deprecated
                     * @description Deprecated alias of `text`.
                     */
                    body?: string | undefined;
                    intent?: components["schemas"]["SendIntent"] | undefined;
                    category_id?: string | undefined;
                    attachments?: components["schemas"]["SendAttachments"] | undefined;
                    /** @description SDK name for the `Idempotency-Key` header. */
                    idempotency_key?: string | undefined;
                    /** @description Alias of the `Idempotency-Key` header. */
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendAccepted"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["SendForbidden"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            413: components["responses"]["Problem"];
            422: components["responses"]["Problem"];
            429: components["responses"]["Problem"];
        };
    };
    replyEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    thread_id: string;
                    expected_last_message_id?: string | undefined;
                    to?: components["schemas"]["Recipients"] | undefined;
                    cc?: components["schemas"]["Recipients"] | undefined;
                    subject?: string | undefined;
                    text?: string | undefined;
                    /**
                     * @deprecated
                     * @description Deprecated alias of `text`.
                     */
                    body?: string | undefined;
                    intent?: components["schemas"]["SendIntent"] | undefined;
                    category_id?: string | undefined;
                    attachments?: components["schemas"]["SendAttachments"] | undefined;
                    idempotency_key?: string | undefined;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendAccepted"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["SendForbidden"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            413: components["responses"]["Problem"];
            422: components["responses"]["Problem"];
            429: components["responses"]["Problem"];
        };
    };
    forwardEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
                /**
                 * @description For an org key, the project to act in (`*` on a list: every project of the org). For a
                 *     project or inbox key it is an assertion: another project is `403 forbidden_scope`.
                 */
                "X-Project-Id"?: components["parameters"]["ProjectPick"] | undefined;
            } | undefined;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                message_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    to: components["schemas"]["Recipients"];
                    cc?: components["schemas"]["Recipients"] | undefined;
                    subject?: string | undefined;
                    /** @description A note above the forwarded message. */
                    text?: string | undefined;
                    /**
                     * @deprecated
                     * @description Deprecated alias of `text`.
                     */
                    body?: string | undefined;
                    intent?: components["schemas"]["SendIntent"] | undefined;
                    category_id?: string | undefined;
                    attachments?: components["schemas"]["SendAttachments"] | undefined;
                    idempotency_key?: string | undefined;
                    client_id?: string | undefined;
                };
            };
        };
        responses: {
            /** @description Accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendAccepted"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["SendForbidden"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            413: components["responses"]["Problem"];
            422: components["responses"]["Problem"];
            429: components["responses"]["Problem"];
        };
    };
    signupStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gate. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                    };
                };
            };
            503: components["responses"]["Legacy"];
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    agent_handle?: string | undefined;
                    display_name?: string | undefined;
                };
            };
        };
        responses: {
            /** @description The same address again while unverified; a new temporary key and code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Signup"];
                };
            };
            /** @description New sign-up; the code is on its way to `email`. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Signup"];
                };
            };
            400: components["responses"]["Problem"];
            403: components["responses"]["Legacy"];
            429: components["responses"]["Problem"];
            502: components["responses"]["Legacy"];
            503: components["responses"]["Legacy"];
        };
    };
    verifySignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The 6 digits mailed. */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Verified; the durable key, shown once (and again to a replay of this call). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupVerified"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Legacy"];
            409: components["responses"]["Problem"];
            503: components["responses"]["Legacy"];
        };
    };
    listFeedback: {
        parameters: {
            query?: {
                /** @description Page size, default 25, 1-100. */
                limit?: number | undefined;
                /** @description Opaque token from a prior `next_cursor`, at most 2048 characters. */
                cursor?: string | undefined;
            } | undefined;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of feedback records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    submitFeedback: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedbackSubmission"];
            };
        };
        responses: {
            /** @description The same evidence was filed before; its repeat_count went up. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackRecord"];
                };
            };
            /** @description A new feedback record. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeedbackRecord"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    getReportingPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportingPolicy"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getSupportCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseWithUpdates"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    replySupportCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SupportCaseReply"];
            };
        };
        responses: {
            /** @description The reply and the case after it. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseUpdateResult"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    adminGetSupportSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportSettings"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUpdateSupportSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SupportSettings"];
            };
        };
        responses: {
            /** @description The settings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportSettings"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListSupportCases: {
        parameters: {
            query?: {
                status?: "received" | "working" | "waiting_on_customer" | "resolved" | undefined;
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminGetSupportCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseWithUpdates"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    adminListSupportCaseEvents: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                cursor?: string | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of updates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseUpdateList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    adminDeleteSupportCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    client_id: string;
                };
            };
        };
        responses: {
            /** @description Deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseDeleted"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    staffListSupportCases: {
        parameters: {
            query?: {
                status?: "received" | "working" | "waiting_on_customer" | "resolved" | undefined;
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of cases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    staffGetSupportCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The case. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseWithUpdates"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    staffUpdateSupportCase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SupportStaffUpdate"];
            };
        };
        responses: {
            /** @description The update and the case after it. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportCaseUpdateResult"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
            410: components["responses"]["Problem"];
        };
    };
    listThreads: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
            } | undefined;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of threads. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getThread: {
        parameters: {
            query?: {
                /** @description Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description. */
                include?: components["parameters"]["Include"] | undefined;
            } | undefined;
            header?: never;
            path: {
                /** @description The inbox id (`inb_...`), or its address as an alias, within the key's reach. */
                inbox_id: components["parameters"]["InboxId"];
                thread_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadWithMessages"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
        };
    };
    registerWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description Registered; `secret` is shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            /** @description Missing permission (`forbidden_scope`) or the plan's webhook limit (`quota_exceeded`, a `QuotaProblem`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaProblem"];
                };
            };
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook with its new `secret`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminRegisterWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the original status and body on retry; the same key with a different body is `409 idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"] | undefined;
            } | undefined;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminWebhookCreate"];
            };
        };
        responses: {
            /** @description Registered. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            400: components["responses"]["Legacy"];
            401: components["responses"]["Legacy"];
            403: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminGetWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["Legacy"];
            404: components["responses"]["Legacy"];
        };
    };
    adminDeleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminUpdateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdate"];
            };
        };
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminRotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook with its new `secret`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminListWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page size, default 50, clamped to 1-100. */
                limit?: components["parameters"]["Limit"] | undefined;
                /** @description Opaque token from a prior `next_cursor`, passed back verbatim. */
                cursor?: components["parameters"]["Cursor"] | undefined;
            } | undefined;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    adminRedeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                org_id: components["parameters"]["OrgId"];
                project_id: components["parameters"]["ProjectId"];
                id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            401: components["responses"]["Problem"];
            403: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
            409: components["responses"]["Problem"];
        };
    };
}
