// Every background worker, in one list. A worker process runs all of them.
import { domainRecheckWorker } from './domain-recheck.ts';
import { autoSendCapsWorker } from './auto-send-caps.ts';
import { maintenanceWorker } from './maintenance.ts';
import { reviewDeliverySweepWorker, reviewDeliveryWorker } from './review-delivery.ts';
import { reviewerPushWorker } from './reviewer-push.ts';
import { reviewChatopsWorker, reviewDigestWorker, reviewNotifyWorker } from './review-notify.ts';
import { reviewDeadlineWorker, reviewEscalationWorker, reviewReconcileWorker } from './review-timers.ts';
import { signupExpiryWorker } from './signup-expiry.ts';
import { usagePeriodsWorker } from './usage-periods.ts';
import { supportCaseMailWorker } from './support-case-mail.ts';
import { webhookDeliveryWorker } from './webhook-delivery.ts';
import type { Worker } from './worker.ts';

export const WORKERS: Worker<any>[] = [
  maintenanceWorker,
  webhookDeliveryWorker,
  reviewDeliveryWorker,
  reviewDeliverySweepWorker,
  reviewEscalationWorker,
  reviewDeadlineWorker,
  reviewReconcileWorker,
  reviewerPushWorker,
  signupExpiryWorker,
  usagePeriodsWorker,
  supportCaseMailWorker,
  domainRecheckWorker,
  autoSendCapsWorker,
  reviewNotifyWorker,
  reviewChatopsWorker,
  reviewDigestWorker,
];
