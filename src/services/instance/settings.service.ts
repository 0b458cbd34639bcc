import type { Db } from '../../db/client.ts';
import type { User } from '../../generated/prisma/client.ts';
import { FeatureDisabledError } from '../../errors.ts';

/** Features that can be switched per instance and per user. A call needing one that is off answers 406. */
export const features = ['journeys', 'custom_grading', 'library', 'competencies', 'short_links', 'privileged_fields'] as const;
export type Feature = (typeof features)[number];

/** Instance defaults when nothing is stored: everything on but the privileged fields. */
const defaultFeatures: Record<Feature, boolean> = {
  journeys: true,
  custom_grading: true,
  library: true,
  competencies: true,
  short_links: true,
  privileged_fields: false,
};

interface Snapshot {
  features: Record<Feature, boolean>;
  maintenance: boolean;
  activeLanguages: Set<string>;
}

/**
 * Instance settings live in the database, so every instance behind a load balancer sees the same
 * switches. They are read on the hot path of every call, so a snapshot is kept for a short time.
 *
 * A snapshot past its time is still answered while one read replaces it in the background: every
 * call of a request then gets its settings in the same number of steps. Had the calls that came
 * after the expiry waited for the database, the lookups they queue would miss the batch the
 * earlier calls of the same list started (one extra statement per straggler).
 */
export class InstanceSettings {
  private snapshot?: { value: Snapshot; at: number };
  private reading?: Promise<Snapshot>;
  /** Bumped by `invalidate`, so a read begun before a change does not store what it saw. */
  private generation = 0;

  constructor(
    private readonly db: Db,
    private readonly options: { maintenance: boolean; ttlMs?: number },
  ) {}

  private isFresh(at: number): boolean {
    return Date.now() - at < (this.options.ttlMs ?? 2000);
  }

  /** The snapshot when it is fresh, without a promise: the hot path of every call. */
  fresh(): Snapshot | undefined {
    return this.snapshot && this.isFresh(this.snapshot.at) ? this.snapshot.value : undefined;
  }

  async current(): Promise<Snapshot> {
    if (!this.snapshot) return this.read();
    if (!this.isFresh(this.snapshot.at)) this.read().catch(() => undefined); // the stale snapshot answers until then
    return this.snapshot.value;
  }

  /** One read at a time; what it read is kept unless the settings changed meanwhile. */
  private read(): Promise<Snapshot> {
    const generation = this.generation;
    const current = () => generation === this.generation;
    this.reading ??= this.load()
      .then((value) => {
        if (current()) this.snapshot = { value, at: Date.now() };
        return value;
      })
      .finally(() => {
        if (current()) this.reading = undefined;
      });
    return this.reading;
  }

  private async load(): Promise<Snapshot> {
    const [rows, languages] = await Promise.all([
      this.db.instanceSetting.findMany({ where: { key: { in: ['features', 'maintenance'] } } }),
      this.db.language.findMany({ where: { active: true }, select: { code: true } }),
    ]);
    const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    return {
      features: { ...defaultFeatures, ...((stored.features as Partial<Record<Feature, boolean>>) ?? {}) },
      maintenance: this.options.maintenance || stored.maintenance === true,
      activeLanguages: new Set(languages.map((l) => l.code)),
    };
  }

  /** Forget the snapshot after a change made by this instance. */
  invalidate(): void {
    this.snapshot = undefined;
    this.reading = undefined;
    this.generation += 1;
  }

  async isEnabled(feature: Feature, user?: Pick<User, 'features'>): Promise<boolean> {
    const own = (user?.features as Partial<Record<Feature, boolean>> | null)?.[feature];
    return own ?? (await this.current()).features[feature];
  }

  async require(feature: Feature, user?: Pick<User, 'features'>): Promise<void> {
    if (!(await this.isEnabled(feature, user))) throw new FeatureDisabledError(feature.replace('_', ' '));
  }

  async set(key: 'features' | 'maintenance', value: unknown): Promise<void> {
    await this.db.instanceSetting.upsert({
      where: { key },
      create: { key, value: value as object },
      update: { value: value as object },
    });
    this.invalidate();
  }
}
