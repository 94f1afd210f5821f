// Generated from the service's /openapi.json by `pnpm --filter @memory-bank/client generate`. Do not edit.

/**
 * Bounds of the fields of request bodies, per named schema and field, as the OpenAPI document
 * publishes them (JSON Schema's minLength, maxLength, minItems, maxItems, minimum, maximum;
 * `items`: each element's), for forms to check before they send; the API still decides.
 */
export const FIELD_LIMITS = {
  AddMember: {
    email: {
      maxLength: 320,
    },
  },
  CreateApiKey: {
    name: {
      minLength: 1,
      maxLength: 100,
    },
    recall_budget_chars: {
      minimum: 300,
      maximum: 20000,
    },
    scopes: {
      minItems: 1,
      maxItems: 7,
    },
  },
  CreateMemory: {
    content: {
      minLength: 1,
      maxLength: 8000,
    },
    contexts: {
      maxItems: 16,
    },
    supersedes: {
      minItems: 1,
      maxItems: 16,
    },
    tags: {
      maxItems: 32,
      items: {
        minLength: 1,
        maxLength: 64,
      },
    },
    ttl_seconds: {
      minimum: 1,
      maximum: 315360000,
    },
  },
  CreateOrg: {
    name: {
      minLength: 1,
      maxLength: 200,
    },
  },
  HookBatch: {
    events: {
      minItems: 1,
      maxItems: 256,
    },
  },
  MemoryContextInput: {
    conversation_id: {
      minLength: 1,
      maxLength: 128,
    },
    message_id: {
      minLength: 1,
      maxLength: 128,
    },
    snippet: {
      minLength: 1,
      maxLength: 4000,
    },
  },
  RecallRequest: {
    cwd: {
      minLength: 1,
      maxLength: 1024,
    },
    max_chars: {
      minimum: 300,
      maximum: 20000,
    },
    prompt: {
      minLength: 1,
      maxLength: 8000,
    },
    repository: {
      minLength: 1,
      maxLength: 200,
    },
    session_id: {
      minLength: 1,
      maxLength: 255,
    },
  },
  RememberEvent: {
    content: {
      minLength: 1,
      maxLength: 8000,
    },
    tags: {
      maxItems: 32,
      items: {
        minLength: 1,
        maxLength: 64,
      },
    },
  },
  UpdateMemory: {
    content: {
      minLength: 1,
      maxLength: 8000,
    },
    tags: {
      maxItems: 32,
      items: {
        minLength: 1,
        maxLength: 64,
      },
    },
    ttl_seconds: {
      minimum: 1,
      maximum: 315360000,
    },
  },
  UpdateOrg: {
    memory_retention_days: {
      minimum: 1,
      maximum: 36500,
    },
    workstream_retention_days: {
      minimum: 1,
      maximum: 36500,
    },
  },
} as const;
