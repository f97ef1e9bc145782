import { describe, expect, it } from 'vitest';
import { authHeaders, canonicalParams, canonicalPath, newNonce, signV2 } from '../../src/care/signing.js';

const base = { secret: 's3cr3t', timestamp: '1700000000', nonce: 'AAAAAAAAAAAAAAAAAAAAAA' };

describe('signature version 2.0', () => {
  it('matches the published vector for a GET with a list and filters', () => {
    const sig = signV2({
      ...base,
      method: 'GET',
      path: 'actions',
      params: { attributes: ['due', '_id', 'assigned_to'], 'filters-assigned_to': '6724fbc74f73a2cebf637806', page: 1 },
    });
    expect(sig).toBe('8b5ea5884fc75e9e047be99f2800dae4170addd8997064e3a625f69e87d0cc65');
  });

  it('matches the published vector for a GET with no parameters', () => {
    expect(signV2({ ...base, method: 'GET', path: 'users', params: {} })).toBe('0f7cfbb988492d12528e8076a750e9a1c8f73104194448840b84a294770bf65f');
  });

  it('matches the published vector for a PATCH with no body', () => {
    expect(signV2({ ...base, method: 'PATCH', path: '/actions/6724fbcb4f73a2cebf638856/complete/', params: {} })).toBe(
      '5a0c0f2d70ed9a23827eae04ff01e84dae4542dfd932b8ab7a2590ccab4f9416',
    );
  });

  it('sorts by key first, then by value, by code point', () => {
    expect(canonicalParams({ 'a-b': '1', a: ['z', 'B', 'a'], Z: 'x' })).toBe('Z=x\na=B\na=a\na=z\na-b=1');
  });

  it('drops null and undefined, keeps empty strings raw and unencoded', () => {
    expect(canonicalParams({ b: null, c: undefined, a: '', q: 'tea & toast=ok' })).toBe('a=\nq=tea & toast=ok');
  });

  it('normalises the path to /v1/<path> with or without slashes and prefix', () => {
    expect(canonicalPath('/actions/')).toBe('/v1/actions');
    expect(canonicalPath('v1/actions/x')).toBe('/v1/actions/x');
  });

  it('sends the five auth headers with a fresh 22-character nonce each time', () => {
    const input = { accountId: 'acc', apiKey: 'key', apiSecret: 's3cr3t', method: 'GET', path: 'actions', params: {}, timestamp: 1700000000 };
    const one = authHeaders(input);
    const two = authHeaders(input);
    expect(one['X-CareHQ-Nonce']).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(one['X-CareHQ-Nonce']).not.toBe(two['X-CareHQ-Nonce']);
    expect(one['X-CareHQ-Signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(one['X-CareHQ-Signature-Version']).toBe('2.0');
    expect(JSON.stringify(one)).not.toContain('s3cr3t');
    expect(newNonce()).toHaveLength(22);
  });
});
