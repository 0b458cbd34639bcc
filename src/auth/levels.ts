/** Permission levels, lowest first; a higher level includes the lower ones. */
export const levels = ['view', 'report', 'control', 'modify', 'grant', 'admin'] as const;
/** The scale of content that handles money: finances sits between modify and grant. */
export const eventLevels = ['view', 'report', 'control', 'modify', 'finances', 'grant', 'admin'] as const;
export type Level = (typeof eventLevels)[number];
