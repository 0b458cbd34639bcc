/**
 * The time exam statuses are derived from. Tests fix it (`clock.fix(date)`) to walk the status
 * table; everything else reads the real time.
 */
let fixed: Date | null = null;

export const clock = {
  now: (): Date => (fixed ? new Date(fixed) : new Date()),
  fix(at: Date | null): void {
    fixed = at;
  },
};
