import type { NotificationFlag, NotificationSettings, NotificationSettingsPatch } from '../../hub/schemas/index.ts';

export type Flags = Record<NotificationFlag, boolean>;

export interface Draft {
  flags: Flags;
  prepaidAmount: string;
  /** ISO timestamp, '' while the hub has none. */
  productUpdatesAfter: string;
}

export function draftFrom(settings: NotificationSettings): Draft {
  const { product_updates_after, ...flags } = settings.notifications;
  return { flags, prepaidAmount: settings.prepaidAmount ?? '', productUpdatesAfter: product_updates_after ?? '' };
}

/** Only what changed goes into the PATCH; prepaidAmount only with launch_prepaid_credits on. */
export function patchFrom(saved: Draft, draft: Draft): NotificationSettingsPatch {
  const notifications: NotificationSettingsPatch['notifications'] = {};
  for (const key of Object.keys(draft.flags) as NotificationFlag[]) {
    if (draft.flags[key] !== saved.flags[key]) notifications[key] = draft.flags[key];
  }
  if (draft.productUpdatesAfter !== saved.productUpdatesAfter) notifications.product_updates_after = draft.productUpdatesAfter;
  const prepaidOn = draft.flags.launch_prepaid_credits;
  const turnedOn = prepaidOn && !saved.flags.launch_prepaid_credits;
  const amountChanged = prepaidOn && draft.prepaidAmount !== saved.prepaidAmount;
  if (!turnedOn && !amountChanged) return { notifications };
  return {
    notifications: { ...notifications, launch_prepaid_credits: true },
    ...(draft.prepaidAmount === '' ? {} : { prepaidAmount: draft.prepaidAmount }),
  };
}

export function isDirty(saved: Draft, draft: Draft): boolean {
  return JSON.stringify(saved) !== JSON.stringify(draft);
}
