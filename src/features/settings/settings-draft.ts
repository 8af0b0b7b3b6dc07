import {
  NOTIFICATION_FLAGS,
  type NotificationFlag,
  type NotificationSettings,
  type NotificationSettingsPatch,
} from '../../hub/schemas/index.ts';

/** `undefined`: not known (the hub does not expose the current value) and left unchanged. */
export type Flags = Record<NotificationFlag, boolean | undefined>;

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

/**
 * For a hub that does not expose the current settings: every flag unknown, so Save sends only
 * what the user sets (and nothing they did not choose).
 */
export function unknownDraft(): Draft {
  return {
    flags: Object.fromEntries(NOTIFICATION_FLAGS.map((f) => [f, undefined])) as Flags,
    prepaidAmount: '',
    productUpdatesAfter: '',
  };
}

/** Only what changed goes into the PATCH (a flag set back to unknown is not sent); prepaidAmount only with launch_prepaid_credits on. */
export function patchFrom(saved: Draft, draft: Draft): NotificationSettingsPatch {
  const notifications: NotificationSettingsPatch['notifications'] = {};
  for (const key of Object.keys(draft.flags) as NotificationFlag[]) {
    const value = draft.flags[key];
    if (value !== undefined && value !== saved.flags[key]) notifications[key] = value;
  }
  if (draft.productUpdatesAfter !== '' && draft.productUpdatesAfter !== saved.productUpdatesAfter)
    notifications.product_updates_after = draft.productUpdatesAfter;
  const prepaidOn = draft.flags.launch_prepaid_credits === true;
  const turnedOn = prepaidOn && saved.flags.launch_prepaid_credits !== true;
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
