import sanitizeHtml from 'sanitize-html';

/**
 * Basic HTML kept, everything that runs removed: scripts and styles go with their content, event
 * handler attributes and `javascript:` (or any non-web) links are dropped. A well-kept sanitizer
 * parses the HTML; no pattern of our own decides what is safe.
 */
const basic: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'sub', 'sup', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'blockquote', 'code', 'pre', 'span', 'div'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** `text` with only basic HTML; blank after cleaning reads as empty. */
export const basicHtml = (text: string): string => sanitizeHtml(text, basic).trim();
