import { describe, expect, it } from 'vitest';
import { HubApiError, HubSchemaError, fieldFromMessage, formatIssuePath, redactSecrets } from './errors.ts';

describe('fieldFromMessage', () => {
  it('finds the field a hub message names', () => {
    expect(fieldFromMessage('url: must be an http(s) URI')).toBe('url');
    expect(fieldFromMessage('job.timeoutSeconds: must be greater than 0')).toBe('job.timeoutSeconds');
    expect(fieldFromMessage('watched[0].name: must not be empty')).toBe('watched[0].name');
    expect(fieldFromMessage('"domains" needs at least one item')).toBe('domains');
    expect(fieldFromMessage('Invalid value for field prepaidAmount')).toBe('prepaidAmount');
  });

  it('drops the location prefix the mock hub puts on field paths', () => {
    expect(fieldFromMessage('body.discussionIds[0]: must be 24 lowercase hexadecimal characters')).toBe(
      'discussionIds[0]',
    );
    expect(fieldFromMessage('query.limit: Too small')).toBe('limit');
    expect(fieldFromMessage('body: unknown field "colour"')).toBe('colour');
    expect(fieldFromMessage('body.job: unknown fields "a", "b"')).toBe('job.a');
    expect(fieldFromMessage('body: is not valid JSON')).toBeNull();
  });

  it('returns null when no field is named', () => {
    expect(fieldFromMessage('Not Found')).toBeNull();
    expect(fieldFromMessage('Resource groups need a Team plan or higher')).toBeNull();
  });
});

describe('redactSecrets', () => {
  it('removes the caller token, raw hub tokens and bearer values', () => {
    const out = redactSecrets(
      'token hf_alice_write is bad; Authorization: Bearer abc.def; mine=sekrit-token',
      'sekrit-token',
    );
    expect(out).not.toContain('hf_alice_write');
    expect(out).not.toContain('abc.def');
    expect(out).not.toContain('sekrit-token');
  });
});

describe('error messages', () => {
  it('HubApiError names endpoint, status, message and request id', () => {
    const e = new HubApiError({
      status: 404,
      message: 'Webhook not found',
      method: 'GET',
      path: '/api/settings/webhooks/x',
      requestId: 'req-1',
    });
    expect(e.message).toBe('GET /api/settings/webhooks/x failed with 404: Webhook not found (request id req-1)');
    expect(e.isNotFound).toBe(true);
    expect(e.name).toBe('HubApiError');
  });

  it('HubSchemaError lists the broken paths', () => {
    const e = new HubSchemaError('GET /api/settings/webhooks', [{ path: '[0].id', message: 'bad id' }]);
    expect(e.message).toContain('[0].id: bad id');
    expect(formatIssuePath(['webhook', 'watched', 0, 'type'])).toBe('webhook.watched[0].type');
  });
});
