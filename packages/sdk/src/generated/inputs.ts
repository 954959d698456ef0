// Generated from the OpenAPI document by `npm run generate -w @agent-inbox/sdk`. Do not edit.

/** Each agent-plane operation's input as one flat JSON Schema object, and where each member goes. */
export const INPUTS: Record<string, { schema: Record<string, unknown>; where: Record<string, 'path' | 'query' | 'body'> }> = {
  "redeemEnrollment": {
    "schema": {
      "type": "object",
      "properties": {
        "token": {
          "type": "string",
          "minLength": 1,
          "maxLength": 512,
          "description": "`pk_enroll_<id>_<secret>`"
        },
        "agent_handle": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "pattern": "\\S"
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        },
        "display_name": {
          "type": "string",
          "maxLength": 200
        }
      },
      "required": [
        "token",
        "agent_handle"
      ]
    },
    "where": {
      "token": "body",
      "agent_handle": "body",
      "client_id": "body",
      "display_name": "body"
    }
  },
  "whoami": {
    "schema": {
      "type": "object",
      "properties": {}
    },
    "where": {}
  },
  "listCategories": {
    "schema": {
      "type": "object",
      "properties": {}
    },
    "where": {}
  },
  "getCategory": {
    "schema": {
      "type": "object",
      "properties": {
        "category_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        }
      },
      "required": [
        "category_id"
      ]
    },
    "where": {
      "category_id": "path"
    }
  },
  "getBacklogStatus": {
    "schema": {
      "type": "object",
      "properties": {
        "category_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        }
      },
      "required": [
        "category_id"
      ]
    },
    "where": {
      "category_id": "path"
    }
  },
  "listContacts": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        },
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "query",
      "limit": "query",
      "cursor": "query"
    }
  },
  "addContact": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        },
        "kind": {
          "type": "string",
          "enum": [
            "allow",
            "block"
          ]
        },
        "pattern": {
          "type": "string",
          "minLength": 1,
          "maxLength": 254
        },
        "direction": {
          "type": "string",
          "enum": [
            "send",
            "receive"
          ],
          "default": "send"
        }
      },
      "required": [
        "inbox_id",
        "kind",
        "pattern"
      ]
    },
    "where": {
      "inbox_id": "body",
      "kind": "body",
      "pattern": "body",
      "direction": "body"
    }
  },
  "removeContact": {
    "schema": {
      "type": "object",
      "properties": {
        "contact_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        }
      },
      "required": [
        "contact_id"
      ]
    },
    "where": {
      "contact_id": "path"
    }
  },
  "listSuppressions": {
    "schema": {
      "type": "object",
      "properties": {
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        }
      }
    },
    "where": {
      "limit": "query",
      "cursor": "query"
    }
  },
  "suppressEmail": {
    "schema": {
      "type": "object",
      "properties": {
        "email": {
          "type": "string",
          "minLength": 3,
          "maxLength": 254
        },
        "reason": {
          "type": "string",
          "maxLength": 500
        }
      },
      "required": [
        "email"
      ]
    },
    "where": {
      "email": "body",
      "reason": "body"
    }
  },
  "checkSuppression": {
    "schema": {
      "type": "object",
      "properties": {
        "email": {
          "type": "string",
          "minLength": 1,
          "maxLength": 254
        }
      },
      "required": [
        "email"
      ]
    },
    "where": {
      "email": "path"
    }
  },
  "unsuppressEmail": {
    "schema": {
      "type": "object",
      "properties": {
        "email": {
          "type": "string",
          "minLength": 1,
          "maxLength": 254
        }
      },
      "required": [
        "email"
      ]
    },
    "where": {
      "email": "path"
    }
  },
  "listDomains": {
    "schema": {
      "type": "object",
      "properties": {}
    },
    "where": {}
  },
  "createDomain": {
    "schema": {
      "type": "object",
      "properties": {
        "domain": {
          "type": "string",
          "minLength": 1,
          "maxLength": 253,
          "description": "Fully qualified, such as `mail.example.com`."
        }
      },
      "required": [
        "domain"
      ]
    },
    "where": {
      "domain": "body"
    }
  },
  "requestDomainPurchase": {
    "schema": {
      "type": "object",
      "properties": {
        "domain": {
          "type": "string",
          "minLength": 1,
          "maxLength": 253
        }
      },
      "required": [
        "domain"
      ]
    },
    "where": {
      "domain": "body"
    }
  },
  "getDomain": {
    "schema": {
      "type": "object",
      "properties": {
        "domain": {
          "type": "string",
          "minLength": 1,
          "maxLength": 253,
          "description": "The fully qualified domain name, or the domain's id (`dom_...`)."
        }
      },
      "required": [
        "domain"
      ]
    },
    "where": {
      "domain": "path"
    }
  },
  "deleteDomain": {
    "schema": {
      "type": "object",
      "properties": {
        "domain": {
          "type": "string",
          "minLength": 1,
          "maxLength": 253,
          "description": "The fully qualified domain name, or the domain's id (`dom_...`)."
        },
        "delete_inboxes": {
          "type": "boolean",
          "default": false
        }
      },
      "required": [
        "domain"
      ]
    },
    "where": {
      "domain": "path",
      "delete_inboxes": "query"
    }
  },
  "verifyDomain": {
    "schema": {
      "type": "object",
      "properties": {
        "domain": {
          "type": "string",
          "minLength": 1,
          "maxLength": 253,
          "description": "The fully qualified domain name, or the domain's id (`dom_...`)."
        }
      },
      "required": [
        "domain"
      ]
    },
    "where": {
      "domain": "path"
    }
  },
  "streamEvents": {
    "schema": {
      "type": "object",
      "properties": {
        "types": {
          "type": "string",
          "maxLength": 2000,
          "description": "Comma-separated event types; all when omitted."
        },
        "last_event_id": {
          "type": "string",
          "maxLength": 64,
          "description": "Resume after this event id, exactly as an event carried it."
        }
      }
    },
    "where": {
      "types": "query",
      "last_event_id": "query"
    }
  },
  "listInboxes": {
    "schema": {
      "type": "object",
      "properties": {
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        }
      }
    },
    "where": {
      "limit": "query",
      "cursor": "query",
      "include": "query"
    }
  },
  "createInbox": {
    "schema": {
      "type": "object",
      "properties": {
        "display_name": {
          "type": [
            "string",
            "null"
          ],
          "maxLength": 200
        },
        "username": {
          "type": "string",
          "minLength": 1,
          "maxLength": 64,
          "description": "Local part of the address; generated when omitted."
        },
        "domain": {
          "type": "string",
          "minLength": 1,
          "maxLength": 253,
          "description": "A verified custom domain of the project (see `/v1/domains`), or `INBOX_DOMAIN` (the\ndefault). Another is `400` naming `domain` (code `not_found`, or `not_verified` for a\ndomain still pending or degraded).\n"
        },
        "webhook_url": {
          "type": [
            "string",
            "null"
          ],
          "format": "uri",
          "maxLength": 2048,
          "pattern": "^https?://",
          "description": "Stored with the inbox; delivery of `message.received` to it is configured with webhooks.\nChecked as a webhook's `url` is: a target on a private, loopback or link-local\naddress (unless `WEBHOOK_ALLOW_PRIVATE`), or a host that does not resolve, is\n`400` naming `webhook_url` (code `target_refused`).\n"
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "description": "Idempotency key, alias of the `Idempotency-Key` header."
        }
      }
    },
    "where": {
      "display_name": "body",
      "username": "body",
      "domain": "body",
      "webhook_url": "body",
      "client_id": "body"
    }
  },
  "getInbox": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "include": "query"
    }
  },
  "updateInbox": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "recipient_limit_24h": {
          "type": "integer",
          "minimum": 0,
          "maximum": 1000000
        }
      },
      "required": [
        "inbox_id",
        "recipient_limit_24h"
      ]
    },
    "where": {
      "inbox_id": "path",
      "recipient_limit_24h": "body"
    }
  },
  "deleteInbox": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "path"
    }
  },
  "listMessages": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "folder": {
          "allOf": [
            {
              "type": "string",
              "enum": [
                "INBOX",
                "SENT",
                "DRAFTS",
                "TRASH",
                "SPAM"
              ]
            }
          ],
          "default": "INBOX",
          "description": "The folder to read, default `INBOX`."
        },
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "folder": "query",
      "limit": "query",
      "cursor": "query",
      "include": "query"
    }
  },
  "getMessage": {
    "schema": {
      "type": "object",
      "properties": {
        "message_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 128,
          "description": "`msg_...`"
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        },
        "format": {
          "type": "string",
          "enum": [
            "auto",
            "text",
            "html",
            "both"
          ],
          "default": "both"
        },
        "variant": {
          "type": "string",
          "enum": [
            "source",
            "extracted"
          ],
          "default": "source"
        }
      },
      "required": [
        "message_id"
      ]
    },
    "where": {
      "message_id": "path",
      "include": "query",
      "format": "query",
      "variant": "query"
    }
  },
  "getMessageRaw": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "message_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 128,
          "description": "`msg_...`"
        }
      },
      "required": [
        "inbox_id",
        "message_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "message_id": "path"
    }
  },
  "listAttachments": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "message_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 128,
          "description": "`msg_...`"
        }
      },
      "required": [
        "inbox_id",
        "message_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "message_id": "path"
    }
  },
  "getAttachment": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "message_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 128,
          "description": "`msg_...`"
        },
        "attachment_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 64
        }
      },
      "required": [
        "inbox_id",
        "message_id",
        "attachment_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "message_id": "path",
      "attachment_id": "path"
    }
  },
  "searchMessages": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "q": {
          "type": "string",
          "maxLength": 1000
        },
        "from": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        },
        "to": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        },
        "subject": {
          "type": "string",
          "minLength": 1,
          "maxLength": 1000
        },
        "folder": {
          "type": "string",
          "enum": [
            "INBOX",
            "SENT",
            "DRAFTS",
            "TRASH",
            "SPAM"
          ]
        },
        "after": {
          "type": "string",
          "format": "date-time"
        },
        "before": {
          "type": "string",
          "format": "date-time"
        },
        "has_attachment": {
          "type": "boolean"
        },
        "authenticated": {
          "type": "boolean",
          "description": "true: only messages whose `authentication.authenticated` is true; false: only the others (unverified, failing, or stored before verdicts)."
        },
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "q": "query",
      "from": "query",
      "to": "query",
      "subject": "query",
      "folder": "query",
      "after": "query",
      "before": "query",
      "has_attachment": "query",
      "authenticated": "query",
      "limit": "query",
      "cursor": "query",
      "include": "query"
    }
  },
  "batchUpdateMessages": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "updates": {
          "type": "array",
          "minItems": 1,
          "maxItems": 100,
          "items": {
            "type": "object",
            "required": [
              "id"
            ],
            "additionalProperties": false,
            "minProperties": 2,
            "properties": {
              "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 128
              },
              "seen": {
                "type": "boolean"
              },
              "folder": {
                "type": "string",
                "enum": [
                  "INBOX",
                  "SENT",
                  "DRAFTS",
                  "TRASH",
                  "SPAM"
                ]
              }
            }
          }
        }
      },
      "required": [
        "inbox_id",
        "updates"
      ]
    },
    "where": {
      "inbox_id": "path",
      "updates": "body"
    }
  },
  "waitForEmail": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "from": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        },
        "subject_contains": {
          "type": "string",
          "minLength": 1,
          "maxLength": 1000
        },
        "authenticated": {
          "type": "boolean",
          "description": "true: only a message whose From domain was authenticated (`authentication.authenticated`); false: only one whose was not."
        },
        "since": {
          "type": "string",
          "format": "date-time"
        },
        "timeout_seconds": {
          "type": "integer",
          "minimum": 1,
          "maximum": 120,
          "default": 30
        },
        "extract": {
          "type": "string",
          "enum": [
            "code",
            "link"
          ]
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "from": "body",
      "subject_contains": "body",
      "authenticated": "body",
      "since": "body",
      "timeout_seconds": "body",
      "extract": "body"
    }
  },
  "decideReview": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        },
        "action": {
          "type": "string",
          "enum": [
            "open",
            "approve",
            "reject",
            "edit",
            "chat",
            "hand_back"
          ]
        },
        "parent_revision": {
          "type": "integer",
          "minimum": 1,
          "maximum": 2147483647
        },
        "feedback": {
          "type": [
            "string",
            "null"
          ],
          "maxLength": 20000
        },
        "text": {
          "type": "string"
        },
        "subject": {
          "type": "string",
          "maxLength": 998
        },
        "message": {
          "type": "string",
          "maxLength": 20000
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "review_id",
        "action"
      ]
    },
    "where": {
      "review_id": "path",
      "action": "body",
      "parent_revision": "body",
      "feedback": "body",
      "text": "body",
      "subject": "body",
      "message": "body",
      "client_id": "body"
    }
  },
  "getReviewerQueue": {
    "schema": {
      "type": "object",
      "properties": {
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        }
      }
    },
    "where": {
      "limit": "query",
      "cursor": "query"
    }
  },
  "streamReviewerWork": {
    "schema": {
      "type": "object",
      "properties": {
        "last_event_id": {
          "type": "string",
          "maxLength": 64,
          "description": "Resume after this item id, exactly as the stream sent it."
        }
      }
    },
    "where": {
      "last_event_id": "query"
    }
  },
  "listReviewEvents": {
    "schema": {
      "type": "object",
      "properties": {
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        },
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        },
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        }
      }
    },
    "where": {
      "limit": "query",
      "cursor": "query",
      "review_id": "query",
      "inbox_id": "query"
    }
  },
  "waitForReviewEvent": {
    "schema": {
      "type": "object",
      "properties": {
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "timeout_seconds": {
          "type": "integer",
          "minimum": 0,
          "maximum": 120,
          "default": 30
        },
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        },
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        }
      }
    },
    "where": {
      "limit": "query",
      "timeout_seconds": "query",
      "review_id": "query",
      "inbox_id": "query"
    }
  },
  "ackReviewEvents": {
    "schema": {
      "type": "object",
      "properties": {
        "acks": {
          "type": "array",
          "maxItems": 1000,
          "items": {
            "type": "object",
            "required": [
              "review_id",
              "through_seq"
            ],
            "additionalProperties": false,
            "properties": {
              "review_id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 200
              },
              "through_seq": {
                "type": "integer",
                "minimum": 0,
                "maximum": 2147483647
              }
            }
          }
        },
        "broadcast_ids": {
          "type": "array",
          "maxItems": 1000,
          "items": {
            "type": "string",
            "minLength": 1,
            "maxLength": 200
          }
        }
      }
    },
    "where": {
      "acks": "body",
      "broadcast_ids": "body"
    }
  },
  "listReviews": {
    "schema": {
      "type": "object",
      "properties": {
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        },
        "state": {
          "type": "string",
          "pattern": "^(needs_review|in_review|chatting|approved|edited|rejected|sending_auto|sent|auto_sent|failed|cancelled)(,(needs_review|in_review|chatting|approved|edited|rejected|sending_auto|sent|auto_sent|failed|cancelled))*$",
          "description": "One state or several separated by commas."
        },
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320
        }
      }
    },
    "where": {
      "limit": "query",
      "cursor": "query",
      "state": "query",
      "inbox_id": "query"
    }
  },
  "getReview": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        }
      },
      "required": [
        "review_id"
      ]
    },
    "where": {
      "review_id": "path"
    }
  },
  "getReviewFeedback": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        }
      },
      "required": [
        "review_id"
      ]
    },
    "where": {
      "review_id": "path"
    }
  },
  "cancelReview": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        },
        "reason": {
          "type": "string",
          "maxLength": 1000
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "review_id"
      ]
    },
    "where": {
      "review_id": "path",
      "reason": "body",
      "client_id": "body"
    }
  },
  "restampReview": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        },
        "parent_revision": {
          "type": "integer",
          "minimum": 1,
          "maximum": 2147483647
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "review_id",
        "parent_revision"
      ]
    },
    "where": {
      "review_id": "path",
      "parent_revision": "body",
      "client_id": "body"
    }
  },
  "reviseReview": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        },
        "parent_revision": {
          "type": "integer",
          "minimum": 1,
          "maximum": 2147483647
        },
        "rules_version": {
          "type": "integer",
          "minimum": 0,
          "maximum": 2147483647
        },
        "to": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "cc": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "subject": {
          "type": "string",
          "maxLength": 998
        },
        "text": {
          "type": "string"
        },
        "body": {
          "type": "string",
          "deprecated": true
        },
        "intent": {
          "description": "`{summary, meta?}`: `summary` 8-200 characters saying who, what and why; `meta` optional\n`{goal, recipient, prior_touches, urgency}`. Checked in code (see the send description):\na given but invalid intent is `400 bad_request` naming the field (`intent`,\n`intent.summary` or `intent.meta`); `intent_required` means no intent was given.\n"
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "review_id",
        "parent_revision"
      ]
    },
    "where": {
      "review_id": "path",
      "parent_revision": "body",
      "rules_version": "body",
      "to": "body",
      "cc": "body",
      "subject": "body",
      "text": "body",
      "body": "body",
      "intent": "body",
      "client_id": "body"
    }
  },
  "chatReview": {
    "schema": {
      "type": "object",
      "properties": {
        "review_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "description": "`rr_...`"
        },
        "message": {
          "type": "string",
          "minLength": 1,
          "maxLength": 20000
        },
        "parent_revision": {
          "type": "integer",
          "minimum": 1,
          "maximum": 2147483647
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "review_id",
        "message"
      ]
    },
    "where": {
      "review_id": "path",
      "message": "body",
      "parent_revision": "body",
      "client_id": "body"
    }
  },
  "getRules": {
    "schema": {
      "type": "object",
      "properties": {
        "category_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        }
      }
    },
    "where": {
      "category_id": "query"
    }
  },
  "proposeRule": {
    "schema": {
      "type": "object",
      "properties": {
        "rule_text": {
          "type": "string",
          "minLength": 1,
          "maxLength": 2000,
          "description": "At most 2000 characters."
        },
        "scope": {
          "type": "string",
          "enum": [
            "general",
            "category"
          ],
          "description": "Default `general`."
        },
        "category_id": {
          "type": [
            "string",
            "null"
          ],
          "minLength": 1,
          "maxLength": 200,
          "description": "Required when `scope` is `category`, and only then."
        },
        "scope_agent_id": {
          "type": [
            "string",
            "null"
          ],
          "minLength": 1,
          "maxLength": 200,
          "description": "A per-agent rule."
        },
        "kind": {
          "type": "string",
          "enum": [
            "soft",
            "hard"
          ],
          "description": "Default `soft`."
        },
        "priority": {
          "type": "integer",
          "minimum": -1000000,
          "maximum": 1000000,
          "description": "Default 0."
        }
      },
      "required": [
        "rule_text"
      ]
    },
    "where": {
      "rule_text": "body",
      "scope": "body",
      "category_id": "body",
      "scope_agent_id": "body",
      "kind": "body",
      "priority": "body"
    }
  },
  "sendEmail": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "to": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "cc": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "subject": {
          "type": "string",
          "maxLength": 998
        },
        "text": {
          "type": "string"
        },
        "body": {
          "type": "string",
          "deprecated": true,
          "description": "Deprecated alias of `text`."
        },
        "intent": {
          "description": "`{summary, meta?}`: `summary` 8-200 characters saying who, what and why; `meta` optional\n`{goal, recipient, prior_touches, urgency}`. Checked in code (see the send description):\na given but invalid intent is `400 bad_request` naming the field (`intent`,\n`intent.summary` or `intent.meta`); `intent_required` means no intent was given.\n"
        },
        "category_id": {
          "type": "string",
          "pattern": "^cat_",
          "maxLength": 200
        },
        "attachments": {
          "type": "array",
          "maxItems": 10,
          "items": {
            "type": "object",
            "required": [
              "content"
            ],
            "additionalProperties": false,
            "properties": {
              "filename": {
                "type": "string",
                "maxLength": 255
              },
              "content_type": {
                "type": "string",
                "maxLength": 255
              },
              "content": {
                "type": "string",
                "description": "base64"
              },
              "content_id": {
                "type": "string",
                "maxLength": 255
              },
              "inline": {
                "type": "boolean"
              }
            }
          }
        },
        "idempotency_key": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "description": "SDK name for the `Idempotency-Key` header."
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "description": "Alias of the `Idempotency-Key` header."
        }
      },
      "required": [
        "inbox_id",
        "to"
      ]
    },
    "where": {
      "inbox_id": "path",
      "to": "body",
      "cc": "body",
      "subject": "body",
      "text": "body",
      "body": "body",
      "intent": "body",
      "category_id": "body",
      "attachments": "body",
      "idempotency_key": "body",
      "client_id": "body"
    }
  },
  "replyEmail": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "thread_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        },
        "expected_last_message_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        },
        "to": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "cc": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "subject": {
          "type": "string",
          "maxLength": 998
        },
        "text": {
          "type": "string"
        },
        "body": {
          "type": "string",
          "deprecated": true,
          "description": "Deprecated alias of `text`."
        },
        "intent": {
          "description": "`{summary, meta?}`: `summary` 8-200 characters saying who, what and why; `meta` optional\n`{goal, recipient, prior_touches, urgency}`. Checked in code (see the send description):\na given but invalid intent is `400 bad_request` naming the field (`intent`,\n`intent.summary` or `intent.meta`); `intent_required` means no intent was given.\n"
        },
        "category_id": {
          "type": "string",
          "pattern": "^cat_",
          "maxLength": 200
        },
        "attachments": {
          "type": "array",
          "maxItems": 10,
          "items": {
            "type": "object",
            "required": [
              "content"
            ],
            "additionalProperties": false,
            "properties": {
              "filename": {
                "type": "string",
                "maxLength": 255
              },
              "content_type": {
                "type": "string",
                "maxLength": 255
              },
              "content": {
                "type": "string",
                "description": "base64"
              },
              "content_id": {
                "type": "string",
                "maxLength": 255
              },
              "inline": {
                "type": "boolean"
              }
            }
          }
        },
        "idempotency_key": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "inbox_id",
        "thread_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "thread_id": "body",
      "expected_last_message_id": "body",
      "to": "body",
      "cc": "body",
      "subject": "body",
      "text": "body",
      "body": "body",
      "intent": "body",
      "category_id": "body",
      "attachments": "body",
      "idempotency_key": "body",
      "client_id": "body"
    }
  },
  "forwardEmail": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "message_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200
        },
        "to": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "cc": {
          "description": "One string (`a@x.example`, `\"Dana\" <dana@acme.example>` or several separated by commas), or\na list of such strings or of `{email, name}`. Each address counts once.\n",
          "anyOf": [
            {
              "type": "string",
              "minLength": 1,
              "maxLength": 20000
            },
            {
              "type": "array",
              "maxItems": 50,
              "items": {
                "anyOf": [
                  {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 400
                  },
                  {
                    "type": "object",
                    "required": [
                      "email"
                    ],
                    "additionalProperties": false,
                    "properties": {
                      "email": {
                        "type": "string",
                        "minLength": 3,
                        "maxLength": 254
                      },
                      "name": {
                        "type": "string",
                        "maxLength": 200
                      }
                    }
                  }
                ]
              }
            }
          ]
        },
        "subject": {
          "type": "string",
          "maxLength": 998
        },
        "text": {
          "type": "string",
          "description": "A note above the forwarded message."
        },
        "body": {
          "type": "string",
          "deprecated": true,
          "description": "Deprecated alias of `text`."
        },
        "intent": {
          "description": "`{summary, meta?}`: `summary` 8-200 characters saying who, what and why; `meta` optional\n`{goal, recipient, prior_touches, urgency}`. Checked in code (see the send description):\na given but invalid intent is `400 bad_request` naming the field (`intent`,\n`intent.summary` or `intent.meta`); `intent_required` means no intent was given.\n"
        },
        "category_id": {
          "type": "string",
          "pattern": "^cat_",
          "maxLength": 200
        },
        "attachments": {
          "type": "array",
          "maxItems": 10,
          "items": {
            "type": "object",
            "required": [
              "content"
            ],
            "additionalProperties": false,
            "properties": {
              "filename": {
                "type": "string",
                "maxLength": 255
              },
              "content_type": {
                "type": "string",
                "maxLength": 255
              },
              "content": {
                "type": "string",
                "description": "base64"
              },
              "content_id": {
                "type": "string",
                "maxLength": 255
              },
              "inline": {
                "type": "boolean"
              }
            }
          }
        },
        "idempotency_key": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255
        }
      },
      "required": [
        "inbox_id",
        "message_id",
        "to"
      ]
    },
    "where": {
      "inbox_id": "path",
      "message_id": "path",
      "to": "body",
      "cc": "body",
      "subject": "body",
      "text": "body",
      "body": "body",
      "intent": "body",
      "category_id": "body",
      "attachments": "body",
      "idempotency_key": "body",
      "client_id": "body"
    }
  },
  "signupStatus": {
    "schema": {
      "type": "object",
      "properties": {}
    },
    "where": {}
  },
  "signUp": {
    "schema": {
      "type": "object",
      "properties": {
        "email": {
          "type": "string",
          "format": "email",
          "maxLength": 254
        },
        "agent_handle": {
          "type": "string",
          "minLength": 1,
          "maxLength": 200,
          "pattern": "\\S"
        },
        "display_name": {
          "type": "string",
          "maxLength": 200
        }
      },
      "required": [
        "email"
      ]
    },
    "where": {
      "email": "body",
      "agent_handle": "body",
      "display_name": "body"
    }
  },
  "verifySignup": {
    "schema": {
      "type": "object",
      "properties": {
        "code": {
          "type": "string",
          "pattern": "^[0-9]{6}$",
          "description": "The 6 digits mailed."
        }
      },
      "required": [
        "code"
      ]
    },
    "where": {
      "code": "body"
    }
  },
  "listFeedback": {
    "schema": {
      "type": "object",
      "properties": {
        "project_id": {
          "type": "string"
        },
        "limit": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "description": "Page size, default 25, 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, at most 2048 characters."
        }
      },
      "required": [
        "project_id"
      ]
    },
    "where": {
      "project_id": "path",
      "limit": "query",
      "cursor": "query"
    }
  },
  "submitFeedback": {
    "schema": {
      "type": "object",
      "properties": {
        "project_id": {
          "type": "string"
        },
        "client_id": {
          "type": "string",
          "format": "uuid"
        },
        "submission_mode": {
          "type": "string",
          "enum": [
            "explicit",
            "automatic"
          ],
          "description": "Default `explicit`."
        },
        "category": {
          "type": "string",
          "enum": [
            "unexpected_error",
            "incorrect_result",
            "missing_capability",
            "confusing_behavior",
            "other"
          ]
        },
        "user_intent": {
          "type": "string",
          "minLength": 1,
          "maxLength": 500
        },
        "expected_behavior": {
          "type": "string",
          "maxLength": 1000
        },
        "observed_behavior": {
          "type": "string",
          "minLength": 1,
          "maxLength": 2000
        },
        "outcome": {
          "type": "string",
          "enum": [
            "blocked",
            "completed_with_workaround",
            "observation"
          ]
        },
        "attempts": {
          "type": "array",
          "maxItems": 20,
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "operation"
            ],
            "properties": {
              "operation": {
                "type": "string",
                "minLength": 1,
                "maxLength": 80
              },
              "http_status": {
                "type": "integer",
                "minimum": 100,
                "maximum": 599
              },
              "error_code": {
                "type": "string",
                "maxLength": 80
              },
              "summary": {
                "type": "string",
                "maxLength": 300
              }
            }
          }
        },
        "resource_refs": {
          "type": "array",
          "maxItems": 20,
          "items": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "type",
              "id"
            ],
            "properties": {
              "type": {
                "type": "string",
                "enum": [
                  "inbox",
                  "review",
                  "submission",
                  "thread",
                  "domain"
                ],
                "description": "`submission` refs always answer 404 - durable submissions are not built here."
              },
              "id": {
                "type": "string",
                "minLength": 1,
                "maxLength": 200
              }
            }
          }
        },
        "client_versions": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "mcp": {
              "type": "string",
              "maxLength": 100
            },
            "sdk": {
              "type": "string",
              "maxLength": 100
            },
            "host": {
              "type": "string",
              "maxLength": 100
            },
            "skill": {
              "type": "string",
              "maxLength": 100
            },
            "runtime": {
              "type": "string",
              "maxLength": 100
            },
            "os": {
              "type": "string",
              "maxLength": 100
            }
          }
        },
        "open_case": {
          "type": "boolean",
          "description": "Open a support case even when the outcome is not `blocked`."
        }
      },
      "required": [
        "project_id",
        "client_id",
        "category",
        "user_intent",
        "observed_behavior",
        "outcome"
      ]
    },
    "where": {
      "project_id": "path",
      "client_id": "body",
      "submission_mode": "body",
      "category": "body",
      "user_intent": "body",
      "expected_behavior": "body",
      "observed_behavior": "body",
      "outcome": "body",
      "attempts": "body",
      "resource_refs": "body",
      "client_versions": "body",
      "open_case": "body"
    }
  },
  "getReportingPolicy": {
    "schema": {
      "type": "object",
      "properties": {
        "project_id": {
          "type": "string"
        }
      },
      "required": [
        "project_id"
      ]
    },
    "where": {
      "project_id": "path"
    }
  },
  "getSupportCase": {
    "schema": {
      "type": "object",
      "properties": {
        "project_id": {
          "type": "string"
        },
        "id": {
          "type": "string",
          "maxLength": 200
        }
      },
      "required": [
        "project_id",
        "id"
      ]
    },
    "where": {
      "project_id": "path",
      "id": "path"
    }
  },
  "replySupportCase": {
    "schema": {
      "type": "object",
      "properties": {
        "project_id": {
          "type": "string"
        },
        "id": {
          "type": "string",
          "maxLength": 200
        },
        "client_id": {
          "type": "string",
          "format": "uuid"
        },
        "body": {
          "type": "string",
          "minLength": 1,
          "maxLength": 5000
        },
        "sequence": {
          "type": "integer",
          "format": "int64",
          "minimum": 0,
          "maximum": 9007199254740991,
          "description": "The newest update's sequence this reply answers (0 when the case has none)."
        }
      },
      "required": [
        "project_id",
        "id",
        "client_id",
        "body"
      ]
    },
    "where": {
      "project_id": "path",
      "id": "path",
      "client_id": "body",
      "body": "body",
      "sequence": "body"
    }
  },
  "listThreads": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        }
      },
      "required": [
        "inbox_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "limit": "query",
      "cursor": "query",
      "include": "query"
    }
  },
  "getThread": {
    "schema": {
      "type": "object",
      "properties": {
        "inbox_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 320,
          "description": "The inbox id (`inb_...`), or its address as an alias, within the key's reach."
        },
        "thread_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 64
        },
        "include": {
          "type": "string",
          "maxLength": 200,
          "description": "Comma-separated relation expansions, from the operation's `x-include` list (inboxes `agent`, `domain`; messages `inbox`, `inbox.agent`, `inbox.domain`, `thread`; threads `inbox`, `inbox.agent`, `inbox.domain`); see the API description."
        }
      },
      "required": [
        "inbox_id",
        "thread_id"
      ]
    },
    "where": {
      "inbox_id": "path",
      "thread_id": "path",
      "include": "query"
    }
  },
  "listWebhooks": {
    "schema": {
      "type": "object",
      "properties": {}
    },
    "where": {}
  },
  "registerWebhook": {
    "schema": {
      "type": "object",
      "properties": {
        "url": {
          "type": "string",
          "format": "uri",
          "maxLength": 2048
        },
        "events": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "enum": [
              "message.received",
              "message.delivered",
              "message.bounced",
              "message.complained",
              "message.delayed"
            ]
          }
        },
        "event_types": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "enum": [
              "message.received",
              "message.delivered",
              "message.bounced",
              "message.complained",
              "message.delayed"
            ]
          }
        },
        "inbox": {
          "type": [
            "string",
            "null"
          ],
          "maxLength": 320,
          "description": "Inbox id or address; null for every inbox of the agent."
        },
        "inbox_id": {
          "type": [
            "string",
            "null"
          ],
          "minLength": 1,
          "maxLength": 320,
          "description": "Alias of `inbox`, the field a webhook's answers carry; both only when equal."
        },
        "address": {
          "type": [
            "string",
            "null"
          ],
          "maxLength": 320,
          "description": "Legacy alias of `inbox`."
        },
        "client_id": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "description": "Alias of the Idempotency-Key header."
        }
      },
      "required": [
        "url"
      ]
    },
    "where": {
      "url": "body",
      "events": "body",
      "event_types": "body",
      "inbox": "body",
      "inbox_id": "body",
      "address": "body",
      "client_id": "body"
    }
  },
  "getWebhook": {
    "schema": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        }
      },
      "required": [
        "id"
      ]
    },
    "where": {
      "id": "path"
    }
  },
  "updateWebhook": {
    "schema": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "url": {
          "type": "string",
          "format": "uri",
          "maxLength": 2048
        },
        "events": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "enum": [
              "message.received",
              "message.delivered",
              "message.bounced",
              "message.complained",
              "message.delayed"
            ]
          }
        },
        "event_types": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "enum": [
              "message.received",
              "message.delivered",
              "message.bounced",
              "message.complained",
              "message.delayed"
            ]
          }
        },
        "inbox": {
          "type": [
            "string",
            "null"
          ],
          "maxLength": 320
        },
        "inbox_id": {
          "type": [
            "string",
            "null"
          ],
          "minLength": 1,
          "maxLength": 320,
          "description": "Alias of `inbox`."
        },
        "address": {
          "type": [
            "string",
            "null"
          ],
          "maxLength": 320
        },
        "active": {
          "type": "boolean"
        }
      },
      "required": [
        "id"
      ]
    },
    "where": {
      "id": "path",
      "url": "body",
      "events": "body",
      "event_types": "body",
      "inbox": "body",
      "inbox_id": "body",
      "address": "body",
      "active": "body"
    }
  },
  "deleteWebhook": {
    "schema": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        }
      },
      "required": [
        "id"
      ]
    },
    "where": {
      "id": "path"
    }
  },
  "listWebhookDeliveries": {
    "schema": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "limit": {
          "type": "integer",
          "description": "Page size, default 50, clamped to 1-100."
        },
        "cursor": {
          "type": "string",
          "maxLength": 2048,
          "description": "Opaque token from a prior `next_cursor`, passed back verbatim."
        }
      },
      "required": [
        "id"
      ]
    },
    "where": {
      "id": "path",
      "limit": "query",
      "cursor": "query"
    }
  },
  "redeliverWebhook": {
    "schema": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "delivery_id": {
          "type": "string"
        }
      },
      "required": [
        "id",
        "delivery_id"
      ]
    },
    "where": {
      "id": "path",
      "delivery_id": "path"
    }
  },
  "rotateWebhookSecret": {
    "schema": {
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        }
      },
      "required": [
        "id"
      ]
    },
    "where": {
      "id": "path"
    }
  }
};
