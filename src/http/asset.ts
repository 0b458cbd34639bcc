/** A page or file that may be binary (pages.ts's SimpleResponse is text only). */
export interface AssetResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer>;
}
