// Generated from the OpenAPI document by `npm run generate -w @agent-inbox/sdk`. Do not edit.

/**
 * The stable agent-facing Review Loop JSON shapes, as JSON Schema: what a send answers, a review,
 * its feedback and event items, the ack cursor, and the problem+json of its 409s and 422s.
 */
export const REVIEW_LOOP_MANIFEST = {
  "contract_version": "0.1.0-pre.6",
  "shapes": {
    "SendIntent": {
      "description": "`{summary, meta?}`: `summary` 8-200 characters saying who, what and why; `meta` optional\n`{goal, recipient, prior_touches, urgency}`. Checked in code (see the send description):\na given but invalid intent is `400 bad_request` naming the field (`intent`,\n`intent.summary` or `intent.meta`); `intent_required` means no intent was given.\n"
    },
    "SendAccepted": {
      "type": "object",
      "required": [
        "outcome",
        "review_id",
        "state",
        "revision",
        "version",
        "effective_mode",
        "effective_review_policy",
        "review"
      ],
      "properties": {
        "outcome": {
          "type": "string",
          "enum": [
            "queued_for_review",
            "released"
          ],
          "description": "`queued_for_review`: a human decides (follow the review events until `review.sent`,\n`review.failed` or `review.cancelled`). `released`: the policy sends without a human;\ndelivery follows at once (`review.auto_sent` or `review.failed`).\n"
        },
        "review_id": {
          "type": "string",
          "description": "`rr_...`"
        },
        "state": {
          "type": "string"
        },
        "revision": {
          "type": "integer"
        },
        "version": {
          "type": "integer"
        },
        "effective_mode": {
          "type": "string",
          "enum": [
            "review",
            "auto"
          ]
        },
        "effective_review_policy": {
          "type": "object",
          "required": [
            "policy",
            "source"
          ],
          "properties": {
            "policy": {
              "type": "string",
              "enum": [
                "require_review",
                "allow_direct"
              ]
            },
            "source": {
              "type": "string",
              "enum": [
                "account_default",
                "inbox_override"
              ]
            }
          }
        },
        "review": {
          "type": "object",
          "description": "A review record. `allowed_actions` are the verbs the caller may use now, read off the review\nmachine: on the agent plane the composer's (`revise`, `restamp`, `chat`, `cancel`), on the\nconsole the human reviewer's (`open`, `approve`, `edit`, `reject`, `chat`, `cancel`).\n\nThe 409 taxonomy of every review verb: `wrong_state` (the verb is illegal in this state),\n`stale` (`parent_revision` is not current; nothing changed), `send_needs_reconciliation` (a\ndelivery is unconfirmed and parked; it is never sent again) each carry `errors[]` entries\n`{field: state, code: <state>}`, `{field: revision, code: <n>}`, `{field: version, code: <n>}`\nand one `{field: allowed_action, code: <verb>}` per verb legal now (`detail` repeats the\nvalue, and `value` holds it typed); `terminal` (already `sent`, `auto_sent` or `cancelled`) carries\n`sent_message_id` instead, and appends a `review.front_run_next` event holding the outcome.\n`revision` counts composer revisions (1 on submission); a reviewer's edit changes the draft\nwithout a new revision. `version` counts every transition.\n\nBeyond decisions.md: `kind` (send, reply, forward), `parent_message_id` (the message replied\nto or forwarded), `send_needs_reconciliation`, `last_error` (of a failed or parked delivery),\n`cancel_reason` and `cancelled_by` (`composer`, `human` or `deadline`), and `draft.attachments`\n(name, type and size of each). `deadline_at` is set when `REVIEW_DEADLINE_SECONDS` is; at it\na live review is cancelled with reason `deadline_exceeded` (a review routed to a reviewer agent\nhas its link's `review_deadline_s`). `route` is `reviewer_agent` while a review link's\nreviewer agent (`reviewer_agent_id`) has it, else `human`; `hops` counts its hand-backs,\nand at `max_hops` the review goes to the human. Humans can decide whatever the route.\n",
          "required": [
            "id",
            "state",
            "revision",
            "version",
            "inbox_id",
            "agent_id",
            "kind",
            "category_id",
            "effective_mode",
            "route",
            "hops",
            "draft",
            "intent",
            "rules_version",
            "feedback",
            "sent_message_id",
            "created_at",
            "updated_at",
            "deadline_at",
            "allowed_actions"
          ],
          "properties": {
            "id": {
              "type": "string"
            },
            "state": {
              "type": "string",
              "enum": [
                "needs_review",
                "in_review",
                "chatting",
                "approved",
                "edited",
                "rejected",
                "sending_auto",
                "sent",
                "auto_sent",
                "failed",
                "cancelled"
              ]
            },
            "revision": {
              "type": "integer"
            },
            "version": {
              "type": "integer"
            },
            "inbox_id": {
              "type": "string"
            },
            "agent_id": {
              "type": "string"
            },
            "kind": {
              "type": "string",
              "enum": [
                "send",
                "reply",
                "forward"
              ]
            },
            "category_id": {
              "type": [
                "string",
                "null"
              ]
            },
            "effective_mode": {
              "type": "string",
              "enum": [
                "review",
                "auto"
              ]
            },
            "mode_reason": {
              "type": [
                "string",
                "null"
              ],
              "enum": [
                "review_policy",
                "screening",
                "loop_suspected",
                "sender_health",
                "allow_direct",
                "category_supervised",
                "first_contact_gate",
                "min_confidence",
                "canary_rate",
                "auto_send_cap",
                "category_auto_notify",
                "category_autonomous",
                null
              ],
              "description": "Why the send was held for review or released. Held: `review_policy` (no category, the\npolicy needs a human), `screening` (it replies to or forwards a flagged message: always\nthe human), `loop_suspected` (it may be one turn of a mail loop: the agent sent\n`LOOP_MAX_SENDS` mails into the thread within `LOOP_WINDOW_MINUTES`, or it answers an\nauto-submitted mail that itself answered this inbox's mail; always the human, whatever the\npolicy or category), `sender_health` (the inbox's recent sends bounce or draw complaints past\nthe limits; always the human, until a human clears it with\n`POST /v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/sender-health/clear`),\n`category_supervised`, `first_contact_gate` (a first mail to a\nrecipient of this inbox), `min_confidence` (`intent.meta.confidence` below the dial's),\n`canary_rate` (the share of an autonomous category's sends still reviewed, fixed per\nreview id), `auto_send_cap` (the customer's auto-sends of the UTC day reached\n`auto_send_cap_per_day`). Released: `allow_direct`, `category_auto_notify`,\n`category_autonomous`.\n"
            },
            "route": {
              "type": "string",
              "enum": [
                "human",
                "reviewer_agent"
              ]
            },
            "hops": {
              "type": "integer"
            },
            "max_hops": {
              "type": "integer"
            },
            "reviewer_agent_id": {
              "type": [
                "string",
                "null"
              ],
              "description": "The reviewer agent the review is routed to; null while routed to the human."
            },
            "draft": {
              "type": "object",
              "required": [
                "to",
                "cc",
                "subject",
                "text",
                "thread_id",
                "in_reply_to",
                "attachments"
              ],
              "properties": {
                "to": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": [
                      "name",
                      "email"
                    ],
                    "properties": {
                      "name": {
                        "type": "string",
                        "description": "Display name; empty when none."
                      },
                      "email": {
                        "type": "string"
                      }
                    }
                  }
                },
                "cc": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "required": [
                      "name",
                      "email"
                    ],
                    "properties": {
                      "name": {
                        "type": "string",
                        "description": "Display name; empty when none."
                      },
                      "email": {
                        "type": "string"
                      }
                    }
                  }
                },
                "subject": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "text": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "thread_id": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "in_reply_to": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "attachments": {
                  "type": "array",
                  "items": {
                    "type": "object",
                    "properties": {
                      "filename": {
                        "type": [
                          "string",
                          "null"
                        ]
                      },
                      "content_type": {
                        "type": "string"
                      },
                      "size": {
                        "type": "integer"
                      }
                    }
                  }
                }
              }
            },
            "parent_message_id": {
              "type": [
                "string",
                "null"
              ]
            },
            "screening": {
              "type": [
                "object",
                "null"
              ],
              "description": "Set when the send replies to or forwards a message screening flagged (`Screening` on the\nmessage; for a reply, the answered message or an earlier flagged one of the thread): such a\nsend is queued for the human (`route: human`) even under `allow_direct`, a graduated category\nor a review link, and this says why.\n",
              "required": [
                "message_id",
                "risk",
                "reasons"
              ],
              "properties": {
                "message_id": {
                  "type": "string"
                },
                "risk": {
                  "type": "string",
                  "enum": [
                    "high",
                    "medium"
                  ]
                },
                "reasons": {
                  "type": "array",
                  "items": {
                    "type": "string"
                  }
                }
              }
            },
            "intent": {
              "type": [
                "object",
                "null"
              ],
              "properties": {
                "summary": {
                  "type": "string"
                },
                "meta": {
                  "type": "object"
                }
              }
            },
            "rules_version": {
              "type": "integer"
            },
            "feedback": {
              "type": [
                "string",
                "null"
              ],
              "description": "The latest reviewer feedback."
            },
            "sent_message_id": {
              "type": [
                "string",
                "null"
              ],
              "description": "The SENT copy (`msg_...`)."
            },
            "send_needs_reconciliation": {
              "type": "boolean"
            },
            "last_error": {
              "type": [
                "string",
                "null"
              ]
            },
            "cancel_reason": {
              "type": [
                "string",
                "null"
              ]
            },
            "cancelled_by": {
              "type": [
                "string",
                "null"
              ],
              "enum": [
                "composer",
                "human",
                "deadline",
                null
              ]
            },
            "created_at": {
              "type": "string",
              "format": "date-time"
            },
            "updated_at": {
              "type": "string",
              "format": "date-time"
            },
            "deadline_at": {
              "type": [
                "string",
                "null"
              ],
              "format": "date-time"
            },
            "allowed_actions": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "open",
                  "approve",
                  "edit",
                  "reject",
                  "chat",
                  "hand_back",
                  "revise",
                  "restamp",
                  "cancel"
                ]
              }
            }
          }
        }
      }
    },
    "ReviewState": {
      "type": "string",
      "enum": [
        "needs_review",
        "in_review",
        "chatting",
        "approved",
        "edited",
        "rejected",
        "sending_auto",
        "sent",
        "auto_sent",
        "failed",
        "cancelled"
      ]
    },
    "ReviewAction": {
      "type": "string",
      "enum": [
        "open",
        "approve",
        "edit",
        "reject",
        "chat",
        "hand_back",
        "revise",
        "restamp",
        "cancel"
      ]
    },
    "Review": {
      "type": "object",
      "description": "A review record. `allowed_actions` are the verbs the caller may use now, read off the review\nmachine: on the agent plane the composer's (`revise`, `restamp`, `chat`, `cancel`), on the\nconsole the human reviewer's (`open`, `approve`, `edit`, `reject`, `chat`, `cancel`).\n\nThe 409 taxonomy of every review verb: `wrong_state` (the verb is illegal in this state),\n`stale` (`parent_revision` is not current; nothing changed), `send_needs_reconciliation` (a\ndelivery is unconfirmed and parked; it is never sent again) each carry `errors[]` entries\n`{field: state, code: <state>}`, `{field: revision, code: <n>}`, `{field: version, code: <n>}`\nand one `{field: allowed_action, code: <verb>}` per verb legal now (`detail` repeats the\nvalue, and `value` holds it typed); `terminal` (already `sent`, `auto_sent` or `cancelled`) carries\n`sent_message_id` instead, and appends a `review.front_run_next` event holding the outcome.\n`revision` counts composer revisions (1 on submission); a reviewer's edit changes the draft\nwithout a new revision. `version` counts every transition.\n\nBeyond decisions.md: `kind` (send, reply, forward), `parent_message_id` (the message replied\nto or forwarded), `send_needs_reconciliation`, `last_error` (of a failed or parked delivery),\n`cancel_reason` and `cancelled_by` (`composer`, `human` or `deadline`), and `draft.attachments`\n(name, type and size of each). `deadline_at` is set when `REVIEW_DEADLINE_SECONDS` is; at it\na live review is cancelled with reason `deadline_exceeded` (a review routed to a reviewer agent\nhas its link's `review_deadline_s`). `route` is `reviewer_agent` while a review link's\nreviewer agent (`reviewer_agent_id`) has it, else `human`; `hops` counts its hand-backs,\nand at `max_hops` the review goes to the human. Humans can decide whatever the route.\n",
      "required": [
        "id",
        "state",
        "revision",
        "version",
        "inbox_id",
        "agent_id",
        "kind",
        "category_id",
        "effective_mode",
        "route",
        "hops",
        "draft",
        "intent",
        "rules_version",
        "feedback",
        "sent_message_id",
        "created_at",
        "updated_at",
        "deadline_at",
        "allowed_actions"
      ],
      "properties": {
        "id": {
          "type": "string"
        },
        "state": {
          "type": "string",
          "enum": [
            "needs_review",
            "in_review",
            "chatting",
            "approved",
            "edited",
            "rejected",
            "sending_auto",
            "sent",
            "auto_sent",
            "failed",
            "cancelled"
          ]
        },
        "revision": {
          "type": "integer"
        },
        "version": {
          "type": "integer"
        },
        "inbox_id": {
          "type": "string"
        },
        "agent_id": {
          "type": "string"
        },
        "kind": {
          "type": "string",
          "enum": [
            "send",
            "reply",
            "forward"
          ]
        },
        "category_id": {
          "type": [
            "string",
            "null"
          ]
        },
        "effective_mode": {
          "type": "string",
          "enum": [
            "review",
            "auto"
          ]
        },
        "mode_reason": {
          "type": [
            "string",
            "null"
          ],
          "enum": [
            "review_policy",
            "screening",
            "loop_suspected",
            "sender_health",
            "allow_direct",
            "category_supervised",
            "first_contact_gate",
            "min_confidence",
            "canary_rate",
            "auto_send_cap",
            "category_auto_notify",
            "category_autonomous",
            null
          ],
          "description": "Why the send was held for review or released. Held: `review_policy` (no category, the\npolicy needs a human), `screening` (it replies to or forwards a flagged message: always\nthe human), `loop_suspected` (it may be one turn of a mail loop: the agent sent\n`LOOP_MAX_SENDS` mails into the thread within `LOOP_WINDOW_MINUTES`, or it answers an\nauto-submitted mail that itself answered this inbox's mail; always the human, whatever the\npolicy or category), `sender_health` (the inbox's recent sends bounce or draw complaints past\nthe limits; always the human, until a human clears it with\n`POST /v1/admin/orgs/{org_id}/projects/{project_id}/inboxes/{inbox_id}/sender-health/clear`),\n`category_supervised`, `first_contact_gate` (a first mail to a\nrecipient of this inbox), `min_confidence` (`intent.meta.confidence` below the dial's),\n`canary_rate` (the share of an autonomous category's sends still reviewed, fixed per\nreview id), `auto_send_cap` (the customer's auto-sends of the UTC day reached\n`auto_send_cap_per_day`). Released: `allow_direct`, `category_auto_notify`,\n`category_autonomous`.\n"
        },
        "route": {
          "type": "string",
          "enum": [
            "human",
            "reviewer_agent"
          ]
        },
        "hops": {
          "type": "integer"
        },
        "max_hops": {
          "type": "integer"
        },
        "reviewer_agent_id": {
          "type": [
            "string",
            "null"
          ],
          "description": "The reviewer agent the review is routed to; null while routed to the human."
        },
        "draft": {
          "type": "object",
          "required": [
            "to",
            "cc",
            "subject",
            "text",
            "thread_id",
            "in_reply_to",
            "attachments"
          ],
          "properties": {
            "to": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "name",
                  "email"
                ],
                "properties": {
                  "name": {
                    "type": "string",
                    "description": "Display name; empty when none."
                  },
                  "email": {
                    "type": "string"
                  }
                }
              }
            },
            "cc": {
              "type": "array",
              "items": {
                "type": "object",
                "required": [
                  "name",
                  "email"
                ],
                "properties": {
                  "name": {
                    "type": "string",
                    "description": "Display name; empty when none."
                  },
                  "email": {
                    "type": "string"
                  }
                }
              }
            },
            "subject": {
              "type": [
                "string",
                "null"
              ]
            },
            "text": {
              "type": [
                "string",
                "null"
              ]
            },
            "thread_id": {
              "type": [
                "string",
                "null"
              ]
            },
            "in_reply_to": {
              "type": [
                "string",
                "null"
              ]
            },
            "attachments": {
              "type": "array",
              "items": {
                "type": "object",
                "properties": {
                  "filename": {
                    "type": [
                      "string",
                      "null"
                    ]
                  },
                  "content_type": {
                    "type": "string"
                  },
                  "size": {
                    "type": "integer"
                  }
                }
              }
            }
          }
        },
        "parent_message_id": {
          "type": [
            "string",
            "null"
          ]
        },
        "screening": {
          "type": [
            "object",
            "null"
          ],
          "description": "Set when the send replies to or forwards a message screening flagged (`Screening` on the\nmessage; for a reply, the answered message or an earlier flagged one of the thread): such a\nsend is queued for the human (`route: human`) even under `allow_direct`, a graduated category\nor a review link, and this says why.\n",
          "required": [
            "message_id",
            "risk",
            "reasons"
          ],
          "properties": {
            "message_id": {
              "type": "string"
            },
            "risk": {
              "type": "string",
              "enum": [
                "high",
                "medium"
              ]
            },
            "reasons": {
              "type": "array",
              "items": {
                "type": "string"
              }
            }
          }
        },
        "intent": {
          "type": [
            "object",
            "null"
          ],
          "properties": {
            "summary": {
              "type": "string"
            },
            "meta": {
              "type": "object"
            }
          }
        },
        "rules_version": {
          "type": "integer"
        },
        "feedback": {
          "type": [
            "string",
            "null"
          ],
          "description": "The latest reviewer feedback."
        },
        "sent_message_id": {
          "type": [
            "string",
            "null"
          ],
          "description": "The SENT copy (`msg_...`)."
        },
        "send_needs_reconciliation": {
          "type": "boolean"
        },
        "last_error": {
          "type": [
            "string",
            "null"
          ]
        },
        "cancel_reason": {
          "type": [
            "string",
            "null"
          ]
        },
        "cancelled_by": {
          "type": [
            "string",
            "null"
          ],
          "enum": [
            "composer",
            "human",
            "deadline",
            null
          ]
        },
        "created_at": {
          "type": "string",
          "format": "date-time"
        },
        "updated_at": {
          "type": "string",
          "format": "date-time"
        },
        "deadline_at": {
          "type": [
            "string",
            "null"
          ],
          "format": "date-time"
        },
        "allowed_actions": {
          "type": "array",
          "items": {
            "type": "string",
            "enum": [
              "open",
              "approve",
              "edit",
              "reject",
              "chat",
              "hand_back",
              "revise",
              "restamp",
              "cancel"
            ]
          }
        }
      }
    },
    "ReviewFeedback": {
      "type": "object",
      "required": [
        "seq",
        "kind",
        "author",
        "revision",
        "feedback",
        "message",
        "diff",
        "created_at"
      ],
      "properties": {
        "seq": {
          "type": "integer"
        },
        "kind": {
          "type": "string",
          "enum": [
            "approve",
            "edit",
            "reject",
            "hand_back",
            "chat"
          ]
        },
        "author": {
          "type": "string",
          "enum": [
            "composer",
            "human",
            "reviewer_agent"
          ]
        },
        "revision": {
          "type": "integer"
        },
        "feedback": {
          "type": [
            "string",
            "null"
          ]
        },
        "message": {
          "type": [
            "string",
            "null"
          ],
          "description": "A chat message."
        },
        "diff": {
          "type": [
            "array",
            "null"
          ],
          "description": "For an edit, per changed field (`subject`, `text`) the value before and after and a line diff.",
          "items": {
            "type": "object",
            "properties": {
              "field": {
                "type": "string"
              },
              "before": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "after": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "lines": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "op": {
                      "type": "string",
                      "enum": [
                        " ",
                        "-",
                        "+"
                      ]
                    },
                    "line": {
                      "type": "string"
                    }
                  }
                }
              }
            }
          }
        },
        "created_at": {
          "type": "string",
          "format": "date-time"
        }
      }
    },
    "ReviewEventItem": {
      "type": "object",
      "description": "A review event: `review.created`, `review.needs_review`, `review.in_review`, `review.chat`,\n`review.approved`, `review.rejected`, `review.edited`, `review.sent`, `review.auto_sent`,\n`review.failed`, `review.cancelled`, and `review.front_run_next` (a verb hit a finished\nreview: `outcome` `sent` or `cancelled`, `attempted_action`, `sent_message_id`). The same\npayload is published to the event log (`GET /v1/events/stream`).\n",
      "required": [
        "seq",
        "review_id",
        "type",
        "state",
        "from_state",
        "category_id",
        "revision",
        "effective_mode",
        "created_at"
      ],
      "properties": {
        "seq": {
          "type": "integer"
        },
        "review_id": {
          "type": "string"
        },
        "type": {
          "type": "string"
        },
        "state": {
          "type": "string"
        },
        "from_state": {
          "type": [
            "string",
            "null"
          ]
        },
        "category_id": {
          "type": [
            "string",
            "null"
          ]
        },
        "revision": {
          "type": "integer"
        },
        "effective_mode": {
          "type": "string",
          "enum": [
            "review",
            "auto"
          ]
        },
        "created_at": {
          "type": "string",
          "format": "date-time"
        },
        "outcome": {
          "type": "string"
        },
        "attempted_action": {
          "type": "string"
        },
        "sent_message_id": {
          "type": [
            "string",
            "null"
          ]
        }
      }
    },
    "ReviewEventList": {
      "type": "object",
      "required": [
        "object",
        "data",
        "has_more",
        "next_cursor"
      ],
      "properties": {
        "object": {
          "type": "string",
          "enum": [
            "list"
          ]
        },
        "data": {
          "type": "array",
          "items": {
            "type": "object",
            "description": "A review event: `review.created`, `review.needs_review`, `review.in_review`, `review.chat`,\n`review.approved`, `review.rejected`, `review.edited`, `review.sent`, `review.auto_sent`,\n`review.failed`, `review.cancelled`, and `review.front_run_next` (a verb hit a finished\nreview: `outcome` `sent` or `cancelled`, `attempted_action`, `sent_message_id`). The same\npayload is published to the event log (`GET /v1/events/stream`).\n",
            "required": [
              "seq",
              "review_id",
              "type",
              "state",
              "from_state",
              "category_id",
              "revision",
              "effective_mode",
              "created_at"
            ],
            "properties": {
              "seq": {
                "type": "integer"
              },
              "review_id": {
                "type": "string"
              },
              "type": {
                "type": "string"
              },
              "state": {
                "type": "string"
              },
              "from_state": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "category_id": {
                "type": [
                  "string",
                  "null"
                ]
              },
              "revision": {
                "type": "integer"
              },
              "effective_mode": {
                "type": "string",
                "enum": [
                  "review",
                  "auto"
                ]
              },
              "created_at": {
                "type": "string",
                "format": "date-time"
              },
              "outcome": {
                "type": "string"
              },
              "attempted_action": {
                "type": "string"
              },
              "sent_message_id": {
                "type": [
                  "string",
                  "null"
                ]
              }
            }
          }
        },
        "has_more": {
          "type": "boolean"
        },
        "next_cursor": {
          "type": [
            "string",
            "null"
          ]
        },
        "timed_out": {
          "type": "boolean",
          "description": "On the long poll only."
        }
      }
    },
    "ReviewCursor": {
      "type": "object",
      "required": [
        "review_id",
        "through_seq"
      ],
      "properties": {
        "review_id": {
          "type": "string"
        },
        "through_seq": {
          "type": "integer"
        }
      }
    },
    "Problem": {
      "type": "object",
      "required": [
        "type",
        "title",
        "status",
        "code"
      ],
      "properties": {
        "type": {
          "type": "string",
          "format": "uri-reference"
        },
        "title": {
          "type": "string"
        },
        "status": {
          "type": "integer"
        },
        "detail": {
          "type": "string"
        },
        "code": {
          "type": "string",
          "description": "The error's code, from the closed registry the service raises its errors from (the served document lists it as `enum`).",
          "enum": [
            "bad_request",
            "unauthorized",
            "forbidden_scope",
            "cross_origin_refused",
            "not_found",
            "conflict",
            "support_record_deleted",
            "idempotency_conflict",
            "breadth_required",
            "quota_exceeded",
            "rate_limited",
            "domain_not_allowed",
            "recipient_blocked",
            "recipient_suppressed",
            "intent_required",
            "wrong_state",
            "terminal",
            "stale",
            "born_stale",
            "send_needs_reconciliation",
            "graduation_locked",
            "maturity_gate_unmet",
            "scope_taken",
            "not_configured",
            "unavailable",
            "domain_unavailable",
            "internal",
            "reply_context_required",
            "reply_context_changed",
            "reply_workflow_required",
            "reply_already_pending"
          ]
        },
        "request_id": {
          "type": "string"
        },
        "errors": {
          "type": "array",
          "items": {
            "type": "object",
            "required": [
              "field",
              "code"
            ],
            "properties": {
              "field": {
                "type": "string"
              },
              "code": {
                "type": "string"
              },
              "detail": {
                "type": "string"
              }
            }
          }
        }
      },
      "additionalProperties": true
    }
  }
} as const;
