/**
 * The media fields of POST `question` and the file types each accepts: read by the input schema
 * (to describe them) and by media.ts (to check uploads), without the file storage media.ts needs.
 */

const IMAGE = ['png', 'jpeg', 'webp'];
const AUDIO = ['mp3', 'aac', 'm4a'];
const VIDEO = ['mp4', 'webm'];

/** Field (camelCase) → accepted types; null accepts any file. */
export const MEDIA_FIELDS = {
  image: IMAGE,
  solutionImage: IMAGE,
  attachment: null,
  mediaAudio: AUDIO,
  mediaVideo: VIDEO,
  video: VIDEO,
  graph: IMAGE,
  hotspotImage: IMAGE,
} as const satisfies Record<string, string[] | null>;
export type MediaField = keyof typeof MEDIA_FIELDS;

const TYPE_NAMES: Record<string, string> = { png: 'PNG', jpeg: 'JPEG', webp: 'WebP', mp3: 'MP3', aac: 'AAC', m4a: 'M4A', mp4: 'MP4', webm: 'WebM' };

/** The file types a media field accepts, in words: `PNG, JPEG, WebP`, or `any type`. */
export function acceptedTypes(field: MediaField): string {
  const allowed = MEDIA_FIELDS[field];
  return allowed === null ? 'any type' : allowed.map((t) => TYPE_NAMES[t]).join(', ');
}
