import { describe, expect, it } from 'vitest';
import { canonicalCareAddress, careAddressChoiceOf } from '../../../src/services/admin/care-address.js';
import { careHostPolicy } from '../../../src/services/admin/care-hosts.js';

describe('the care API address an admin types', () => {
  it('is kept as <origin><path>/v1, whether typed with /v1, a trailing slash or neither', () => {
    expect(canonicalCareAddress('https://care.example.org')).toEqual({ ok: true, url: 'https://care.example.org/v1' });
    expect(canonicalCareAddress(' https://care.example.org/v1/ ')).toEqual({ ok: true, url: 'https://care.example.org/v1' });
    expect(canonicalCareAddress('https://care.example.org/api/')).toEqual({ ok: true, url: 'https://care.example.org/api/v1' });
    const sandboxListed = careHostPolicy([{ host: '127.0.0.1', port: 4010 }]);
    expect(canonicalCareAddress('http://127.0.0.1:4010/v1', sandboxListed)).toEqual({ ok: true, url: 'http://127.0.0.1:4010/v1' });
  });

  it('must be https (plain http only to a host CARE_API_HOSTS lists), with no query or user name', () => {
    expect(canonicalCareAddress('http://127.0.0.1:4010/v1')).toMatchObject({ ok: false });
    expect(canonicalCareAddress('http://care.example.org/v1')).toMatchObject({ ok: false });
    expect(canonicalCareAddress('api.carehq.co.uk')).toMatchObject({ ok: false, sentence: expect.stringMatching(/not a web address/) });
    expect(canonicalCareAddress('https://care.example.org/v1?key=1')).toMatchObject({ ok: false });
    expect(canonicalCareAddress('https://me:pw@care.example.org/v1')).toMatchObject({ ok: false });
  });

  it('is recognised as live or sandbox when it is the vendor’s, however it was written', () => {
    expect(careAddressChoiceOf('https://api.carehq.co.uk/v1')).toEqual({ choice: 'live' });
    expect(careAddressChoiceOf('https://api.carehq.dev/')).toEqual({ choice: 'sandbox' });
    expect(careAddressChoiceOf('https://care.example.org/v1')).toEqual({ choice: 'other', url: 'https://care.example.org/v1' });
  });
});
