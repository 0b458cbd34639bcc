/** A unique-constraint failure (Prisma P2002) on the given column. */
export function isUniqueViolation(error: unknown, column: string): boolean {
  const e = error as { code?: unknown; meta?: unknown } | null;
  return e?.code === 'P2002' && JSON.stringify(e.meta ?? {}).includes(column);
}

