import { describe, expect, it } from 'vitest';
import { NOTIFICATION_FLAGS, NotificationSettingsPatch, type NotificationFlag } from '../../hub/schemas/index.ts';
import { isDirty, patchFrom, unknownDraft, type Draft } from './settings-draft.ts';

const flags = Object.fromEntries(NOTIFICATION_FLAGS.map((f) => [f, false])) as Record<NotificationFlag, boolean>;
const saved: Draft = { flags, prepaidAmount: '', productUpdatesAfter: '2026-01-01T00:00:00.000Z' };
const edit = (changes: Partial<Record<NotificationFlag, boolean>>, prepaidAmount = ''): Draft => ({
  ...saved,
  flags: { ...flags, ...changes },
  prepaidAmount,
});

describe('patchFrom', () => {
  it('sends only the flags that changed', () => {
    expect(patchFrom(saved, edit({ secret_detected: true }))).toEqual({ notifications: { secret_detected: true } });
    expect(isDirty(saved, saved)).toBe(false);
    expect(isDirty(saved, edit({ secret_detected: true }))).toBe(true);
  });

  it('sends prepaidAmount with launch_prepaid_credits turned on, and the schema accepts it', () => {
    const patch = patchFrom(saved, edit({ launch_prepaid_credits: true }, '100 USD'));
    expect(patch).toEqual({ notifications: { launch_prepaid_credits: true }, prepaidAmount: '100 USD' });
    expect(NotificationSettingsPatch.safeParse(patch).success).toBe(true);
  });

  it('turning prepaid credits on without an amount fails the shared schema on prepaidAmount', () => {
    const r = NotificationSettingsPatch.safeParse(patchFrom(saved, edit({ launch_prepaid_credits: true })));
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['prepaidAmount']);
  });

  it('re-sends the flag when only the amount of an enabled prepaid offer changes', () => {
    const on: Draft = { ...saved, flags: { ...flags, launch_prepaid_credits: true }, prepaidAmount: '10 USD' };
    const patch = patchFrom(on, { ...on, prepaidAmount: '20 USD' });
    expect(patch).toEqual({ notifications: { launch_prepaid_credits: true }, prepaidAmount: '20 USD' });
    expect(patchFrom(on, on)).toEqual({ notifications: {} });
  });

  it('sends product_updates_after only when it changed', () => {
    const patch = patchFrom(saved, { ...saved, productUpdatesAfter: '2026-02-01T10:00:00.000Z' });
    expect(patch).toEqual({ notifications: { product_updates_after: '2026-02-01T10:00:00.000Z' } });
    expect(NotificationSettingsPatch.safeParse(patch).success).toBe(true);
  });

  it('turning prepaid credits off sends no amount', () => {
    const on: Draft = { ...saved, flags: { ...flags, launch_prepaid_credits: true }, prepaidAmount: '10 USD' };
    const patch = patchFrom(on, { ...on, flags: { ...on.flags, launch_prepaid_credits: false } });
    expect(patch).toEqual({ notifications: { launch_prepaid_credits: false } });
    expect(NotificationSettingsPatch.safeParse(patch).success).toBe(true);
  });

  describe('when the hub does not expose the current values', () => {
    const unknown = unknownDraft();
    const set = (
      changes: Partial<Record<NotificationFlag, boolean | undefined>>,
      more: Partial<Draft> = {},
    ): Draft => ({ ...unknown, ...more, flags: { ...unknown.flags, ...changes } });

    it('sends exactly the flags the user set, on or off, and nothing for those left unchanged', () => {
      expect(patchFrom(unknown, unknown)).toEqual({ notifications: {} });
      expect(isDirty(unknown, unknown)).toBe(false);
      expect(
        patchFrom(unknown, set({ announcements: false, daily_papers_digest: true, locked_out: undefined })),
      ).toEqual({ notifications: { announcements: false, daily_papers_digest: true } });
    });

    it('asks for an amount when prepaid credits are set on, and sends none when set off', () => {
      expect(patchFrom(unknown, set({ launch_prepaid_credits: true }, { prepaidAmount: '5 USD' }))).toEqual({
        notifications: { launch_prepaid_credits: true },
        prepaidAmount: '5 USD',
      });
      expect(
        NotificationSettingsPatch.safeParse(patchFrom(unknown, set({ launch_prepaid_credits: true }))).success,
      ).toBe(false);
      expect(patchFrom(unknown, set({ launch_prepaid_credits: false }))).toEqual({
        notifications: { launch_prepaid_credits: false },
      });
    });

    it('sends product_updates_after only once a date is chosen', () => {
      expect(patchFrom(unknown, set({}, { productUpdatesAfter: '2026-02-01T10:00:00.000Z' }))).toEqual({
        notifications: { product_updates_after: '2026-02-01T10:00:00.000Z' },
      });
    });

    it('after a save, the values set are the baseline: setting them again sends nothing', () => {
      const saved = set({ announcements: false });
      expect(patchFrom(saved, saved)).toEqual({ notifications: {} });
      expect(patchFrom(saved, set({ announcements: true }))).toEqual({ notifications: { announcements: true } });
    });
  });
});
