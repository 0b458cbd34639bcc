import { describe, expect, it } from 'vitest';
import { headerParameters } from '../../src/http/header-params.ts';

/** Header values as Node hands them over: one character a byte. */
const params = (value: string) => {
  const { type, parameters } = headerParameters(value);
  return { type, parameters: Object.fromEntries([...parameters].map(([name, p]) => [name, p.charset ? [p.bytes.toString('hex'), p.charset] : p.bytes.toString('latin1')])) };
};

describe('headerParameters', () => {
  it('reads the type and the parameters, quoted or not, names lowercased', () => {
    expect(params('Multipart/Form-Data; Boundary=----x1; charset = "utf-8"')).toEqual({ type: 'multipart/form-data', parameters: { boundary: '----x1', charset: 'utf-8' } });
    expect(params('text/plain')).toEqual({ type: 'text/plain', parameters: {} });
    expect(params('')).toEqual({ type: '', parameters: {} });
  });

  it('keeps `;` and `=` inside quotes, takes `\\` as an escape and skips parameters without a value', () => {
    expect(params('form-data; flag; name="a;b=c"; filename="say \\"hi\\".txt"')).toEqual({ type: 'form-data', parameters: { name: 'a;b=c', filename: 'say "hi".txt' } });
    expect(params('form-data; name="unterminated')).toEqual({ type: 'form-data', parameters: { name: 'unterminated' } });
  });

  it('gives the bytes as sent, bytes that are not UTF-8 included', () => {
    const { parameters } = headerParameters('form-data; name="caf\xe9\xff"');
    expect([...parameters.get('name')!.bytes]).toEqual([0x63, 0x61, 0x66, 0xe9, 0xff]);
  });

  it('decodes an extended parameter to its bytes with its charset, and prefers it to the plain one', () => {
    expect(params("form-data; filename*=UTF-8'en'%E2%82%AC%20rates.txt; filename=\"rates.txt\"")).toEqual({
      type: 'form-data',
      parameters: { filename: ['e282ac2072617465732e747874', 'UTF-8'] },
    });
    // Not of the form charset'language'value: left out.
    expect(params('form-data; name*=plain')).toEqual({ type: 'form-data', parameters: {} });
  });
});
