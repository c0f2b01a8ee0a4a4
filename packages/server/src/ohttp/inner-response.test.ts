/** The gateway's lazily built inner Response (./inner-response.ts): a Response to any reader, its parts to the gateway. */
import { describe, expect, it } from 'vitest';
import { InnerResponse } from './inner-response.js';

const plain = () => ({
  status: 201,
  statusText: 'Created',
  headers: new Headers({ 'x-a': '1' }),
  contentType: 'application/json',
  body: new TextEncoder().encode('{"a":1}'),
});

describe('InnerResponse', () => {
  it('answers as a Response, and hands the gateway its parts while unread', async () => {
    const r = new InnerResponse(plain()) as unknown as Response;
    expect(r).toBeInstanceOf(Response);
    expect([r.status, r.statusText, r.ok]).toEqual([201, 'Created', true]);
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.headers.get('x-a')).toBe('1');
    expect(InnerResponse.plainOf(r as unknown as InnerResponse)?.body.length).toBe(7);
    expect(await r.json()).toEqual({ a: 1 });
    expect(r.bodyUsed).toBe(true);
    expect(InnerResponse.plainOf(r as unknown as InnerResponse)).toBeNull();
    await expect(r.text()).rejects.toThrow(TypeError);
  });
  it('a member it does not answer itself comes from a real Response, which is the answer from then on', async () => {
    const r = new InnerResponse(plain()) as unknown as Response;
    const reader = r.body?.getReader();
    expect(InnerResponse.plainOf(r as unknown as InnerResponse)).toBeNull();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toBe('{"a":1}');
    expect(r.type).toBe('default');
  });
});
