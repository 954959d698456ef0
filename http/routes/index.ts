// Every route table, merged; createApp checks it against the operations of the OpenAPI document.
import type { RouteTable, Services } from '../context.ts';
import { adminRoutes } from './admin.ts';
import { adminClaimRoutes } from './admin-claims.ts';
import { adminMemberRoutes } from './admin-members.ts';
import { adminSettingsRoutes } from './admin-settings.ts';
import { billingRoutes } from './billing.ts';
import { adminMailRoutes } from './admin-mail.ts';
import { adminReviewRoutes } from './admin-reviews.ts';
import { adminRuleRoutes } from './admin-rules.ts';
import { categoryRoutes } from './categories.ts';
import { contactRoutes } from './contacts.ts';
import { docsRoutes } from './docs.ts';
import { domainRoutes } from './domains.ts';
import { enrollmentRoutes } from './enrollment.ts';
import { eventRoutes } from './events.ts';
import { healthRoutes } from './health.ts';
import { inboxRoutes } from './inboxes.ts';
import { messageRoutes } from './messages.ts';
import { metricsRoutes } from './metrics.ts';
import { notificationRoutes } from './notifications.ts';
import { problemRoutes } from './problems.ts';
import { reviewRoutes } from './reviews.ts';
import { reviewerRoutes } from './reviewer.ts';
import { ruleRoutes } from './rules.ts';
import { sendRoutes } from './send.ts';
import { signupRoutes } from './signup.ts';
import { supportRoutes } from './support.ts';
import { threadRoutes } from './threads.ts';
import { unsubscribeRoutes } from './unsubscribe.ts';
import { webhookRoutes } from './webhooks.ts';

const TABLES = [healthRoutes, enrollmentRoutes, adminRoutes, webhookRoutes, eventRoutes, inboxRoutes, messageRoutes, threadRoutes,
  sendRoutes, reviewRoutes, contactRoutes, unsubscribeRoutes, adminReviewRoutes, adminRuleRoutes, ruleRoutes, problemRoutes, docsRoutes, metricsRoutes, reviewerRoutes,
  signupRoutes, adminClaimRoutes, adminMemberRoutes, adminSettingsRoutes, billingRoutes, supportRoutes, domainRoutes, categoryRoutes, adminMailRoutes,
  notificationRoutes];

export function allRoutes(s: Services): RouteTable {
  const merged: RouteTable = {};
  for (const table of TABLES) {
    for (const [id, route] of Object.entries(table(s))) {
      if (merged[id]) throw new Error(`operation ${id} is routed twice`);
      merged[id] = route;
    }
  }
  return merged;
}
