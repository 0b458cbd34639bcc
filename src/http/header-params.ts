/** A parameter's value as the bytes sent, with the charset an extended parameter declares (RFC 8187: `name*=utf-8''%E2%82%AC`). */
export interface HeaderParameter {
  bytes: Buffer;
  charset?: string;
}

/** The extended form's charset, language and percent-encoded bytes. */
const EXTENDED = /^([^']*)'[^']*'(.*)$/s;

/**
 * A header value such as `form-data; name="title"; filename*=utf-8''r%C3%A9sum%C3%A9.pdf` or
 * `text/plain; charset=latin1`: its first token, lowercased, and its parameters by lowercased name.
 * The value is given as Node and busboy's part parser hold header bytes (one character a byte), and
 * parameters come back as bytes: which charset they are text in is the caller's to decide, where a
 * parser that decodes them itself turns bytes that are not UTF-8 into U+FFFD. Quoted strings take
 * `\` as an escape, as busboy did; an extended parameter wins over the plain one of the same name.
 */
export function headerParameters(value: string): { type: string; parameters: Map<string, HeaderParameter> } {
  const plain = new Map<string, HeaderParameter>();
  const extended = new Map<string, HeaderParameter>();
  let i = value.indexOf(';');
  const type = (i < 0 ? value : value.slice(0, i)).trim().toLowerCase();
  while (i >= 0 && i < value.length) {
    const eq = value.indexOf('=', i + 1);
    const next = value.indexOf(';', i + 1);
    if (eq < 0) break;
    if (next >= 0 && next < eq) {
      i = next;
      continue;
    }
    const name = value.slice(i + 1, eq).trim().toLowerCase();
    let text = '';
    let j = eq + 1;
    while (value[j] === ' ' || value[j] === '\t') j++;
    if (value[j] === '"') {
      for (j++; j < value.length && value[j] !== '"'; j++) text += value[j] === '\\' && j + 1 < value.length ? value[++j] : value[j];
      i = value.indexOf(';', j);
    } else {
      i = value.indexOf(';', j);
      text = value.slice(j, i < 0 ? undefined : i).trim();
    }
    if (!name.endsWith('*')) plain.set(name, { bytes: Buffer.from(text, 'latin1') });
    else {
      const parts = EXTENDED.exec(text);
      const bytes = parts && Buffer.from(parts[2]!.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
      if (bytes) extended.set(name.slice(0, -1), { bytes, charset: parts![1] || undefined });
    }
  }
  return { type, parameters: new Map([...plain, ...extended]) };
}
